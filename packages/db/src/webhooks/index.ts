export {
  createWebhookDeliveryStore,
  type DeliverableMessage,
  type WebhookAttemptRecord,
  type WebhookDeliveryStore,
} from './delivery-store.js';
