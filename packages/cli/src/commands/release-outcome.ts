/** What publish_component answers (docs/tool-contract.md), the parts the CLI reports. */
export interface PublishAnswer {
  readonly status: 'released' | 'pending_approval';
  readonly message: string;
  readonly environment: string;
  readonly variantId: string;
  readonly sequence: number;
  readonly previousVariantId?: string | null;
  readonly releasedAt?: string;
  readonly request?: Record<string, unknown>;
}

export interface ReleaseOutcome {
  readonly pending: boolean;
  readonly data: Record<string, unknown>;
  readonly text: string;
}

export function releaseOutcome(answer: PublishAnswer): ReleaseOutcome {
  return {
    pending: answer.status === 'pending_approval',
    data: {
      status: answer.status,
      environment: answer.environment,
      variantId: answer.variantId,
      sequence: answer.sequence,
      previousVariantId: answer.previousVariantId ?? null,
      releasedAt: answer.releasedAt ?? null,
      ...(answer.request === undefined ? {} : { request: answer.request }),
    },
    text: answer.message,
  };
}
