import { ConfigError } from '../config.js';
import { AppError, UpstreamError } from '../errors.js';
import type { HttpGateway } from '../adapters/http-gateway.js';

/**
 * Start-up check of model mode: the configured model must be listed by `/models` of the
 * configured region. Anything else stops start-up with one clear line (a `ConfigError`), so a
 * site never goes live with a chat that can only answer "not available in your region".
 */
export async function checkModelAvailable(gateway: HttpGateway): Promise<void> {
  let ids: string[];
  try {
    ids = (await gateway.listModels()).map((m) => m.id);
  } catch (err) {
    throw new ConfigError([describeFailure(gateway, err)]);
  }
  if (ids.includes(gateway.model)) return;
  const hint = gateway.region === 'eu' ? '; use a model listed there, or GATEWAY_REGION=global if it may leave the EU' : '; use a model listed there';
  throw new ConfigError([`GATEWAY_MODEL ${gateway.model} is not available in region ${gateway.region} (${ids.length} models listed at ${gateway.apiBase}/models)${hint}`]);
}

function describeFailure(gateway: HttpGateway, err: unknown): string {
  const where = `${gateway.apiBase}/models`;
  if (err instanceof UpstreamError && (err.upstreamStatus === 401 || err.upstreamStatus === 403)) {
    return `GATEWAY_API_KEY was refused by the gateway (status ${err.upstreamStatus} from ${where})`;
  }
  if (err instanceof UpstreamError && err.upstreamStatus === 402) return `GATEWAY_API_KEY has no credit or budget left (${where})`;
  if (err instanceof UpstreamError && err.upstreamStatus !== undefined) {
    return `GATEWAY_BASE_URL: the gateway answered ${where} with status ${err.upstreamStatus}; check the address and GATEWAY_REGION`;
  }
  const reason = err instanceof AppError ? err.message.toLowerCase() : 'it failed';
  return `GATEWAY_BASE_URL: could not list the models at ${where} (${reason})`;
}
