import { checkOutboundUrl, type OutboundRule } from './outbound-url.js';

/**
 * The domain's WebhookUrlPolicy port (structurally) over the outbound rule: null when the URL
 * may be called, else the reason. The worker checks again at each delivery.
 */
export const outboundUrlPolicy = (
  rule: OutboundRule,
): { check(url: string): Promise<string | null> } => ({
  async check(url) {
    const result = await checkOutboundUrl(url, rule);
    return result.ok ? null : result.reason;
  },
});
