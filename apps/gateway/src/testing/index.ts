// The gateway's test harnesses that need its insides, for the e2e tests and the bench
// (`@gp-gateway/gateway/testing`); never imported by the gateway's production code.
export { provisionOrganisation, type Provisioned } from './provision.ts';
export { startWebhookReceiver, type WebhookReceiver, type ReceivedDelivery } from './webhookReceiver.ts';
export { webhookRig, customerChange, type WebhookRig } from './webhookRig.ts';
export { tempStore } from './tempStore.ts';
