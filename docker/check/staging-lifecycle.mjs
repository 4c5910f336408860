// The bucket lifecycle rule that expires staged uploads (minio-init sets it): its prefix must
// be where the domain stages uploads, or the safety net covers nothing.
export function checkStagingLifecycle({ compose, stagingPrefix, report }) {
  const script = [compose.services?.['minio-init']?.command].flat().join('\n');
  const rule =
    /"Filter":\s*\{\s*"Prefix":\s*"([^"]*)"\s*\},\s*"Expiration":\s*\{\s*"Days":\s*(\d+)\s*\}/.exec(
      script,
    );
  if (!rule || !/mc ilm rule import "local\/\$\$S3_BUCKET"/.test(script)) {
    report.fail(
      'compose.yml minio-init',
      'must import a lifecycle rule expiring the staging prefix',
    );
  } else if (rule[1] !== stagingPrefix) {
    report.fail(
      'compose.yml minio-init',
      `the lifecycle rule's prefix is "${rule[1]}", uploads are staged under "${stagingPrefix}"`,
    );
  } else {
    report.pass(
      `compose.yml: minio-init expires ${stagingPrefix} after ${rule[2]} day(s) (bucket lifecycle rule)`,
    );
  }
}
