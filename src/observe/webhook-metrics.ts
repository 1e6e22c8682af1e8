import type { WebhookListener } from '../custom/index.js';
import type { LabelCap } from './label-cap.js';
import type { ServiceMetrics } from './metrics.js';

/**
 * The mutation webhook counter (`autograph_lambda_webhooks_total`), fed by the dispatcher's reports. Webhook
 * names come from the schema; they are capped like resolver names all the same. The failure kinds are
 * custom/'s fixed list, so the outcome label is bounded.
 */
export function webhookMetrics(metrics: ServiceMetrics | undefined, names: LabelCap): WebhookListener {
  if (!metrics) return {};
  return {
    delivered: (name) => metrics.recordWebhook(names.label(name), 'delivered'),
    failed: (name, failure) => metrics.recordWebhook(names.label(name), `failed_${failure.replace(/-/g, '_')}`),
    dropped: (name) => metrics.recordWebhook(names.label(name), 'dropped'),
  };
}
