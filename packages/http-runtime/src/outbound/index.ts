export {
  addressRange,
  describeRange,
  isLoopbackAddress,
  isPublicAddress,
} from './address-policy.js';
export {
  checkOutboundUrl,
  type OutboundCheck,
  type OutboundRule,
  type ResolvedAddress,
} from './outbound-url.js';
export { pinnedLookup } from './pinned-lookup.js';
export { outboundUrlPolicy } from './url-policy.js';
