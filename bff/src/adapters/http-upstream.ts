import { AppError, UpstreamError } from '../errors.js';
import { fetchWithRetry, readJson, type RetryPolicy } from '../lib/http-retry.js';
import { isRecord } from '../../../shared/records.js';
import { unwrapList } from './agent-shapes.js';
import type { Observer } from '../ports/observer.js';
import type { AgentUpstream, RawHistoryItem, SendInput, VariableValue } from '../ports/upstream.js';

export interface HttpAgentUpstreamOptions {
  baseUrl: string;
  accessToken: string;
  botKey: string;
  testChat: boolean;
  devWebhookUrl?: string;
  /** Body used to archive (the seed does not show it). */
  archiveBody?: Record<string, unknown>;
  policy: RetryPolicy;
  fetch?: typeof fetch;
  observer?: Observer;
}

/** Area B over HTTP: the access token and bot key stay here and never reach a browser. */
export class HttpAgentUpstream implements AgentUpstream {
  constructor(private readonly o: HttpAgentUpstreamOptions) {}

  async send(input: SendInput): Promise<{ session: string }> {
    const body: Record<string, unknown> = { message: input.message, webhookOnly: true };
    if (input.session !== undefined) body.session = input.session;
    if (input.profileName) body.profileName = input.profileName;
    if (input.session === undefined && this.o.testChat) body.isTestChat = true;
    if (this.o.devWebhookUrl) body.webhookUrl = this.o.devWebhookUrl;
    const res = await this.call('send', `/v1/bots/${encodeURIComponent(this.o.botKey)}/messages/`, 'POST', body, false);
    const json = await readJson(res, 'service');
    const session = isRecord(json) ? (json.session ?? json.sessionId) : undefined;
    if (typeof session !== 'string' && typeof session !== 'number') {
      throw new UpstreamError('upstream_error', 'The service did not return a session', { upstreamStatus: res.status });
    }
    return { session: String(session) };
  }

  async listMessages(session: string, limit: number, offset: number): Promise<RawHistoryItem[]> {
    const path = `/v1/conversations/${encodeURIComponent(session)}/messages?limit=${limit}&offset=${offset}`;
    const res = await this.call('list_messages', path, 'GET', undefined, true);
    return unwrapList(await readJson(res, 'service'));
  }

  async setUserVariables(session: string, variables: Record<string, VariableValue>): Promise<void> {
    await this.call('set_user', `/v1/conversations/${encodeURIComponent(session)}/user`, 'PATCH', variables, true);
  }

  async escalate(session: string, operatorEmail: string): Promise<void> {
    await this.call('escalate', `/v1/conversations/${encodeURIComponent(session)}`, 'PATCH', { state: 'escalated', operatorEmail }, true);
  }

  async archive(session: string): Promise<void> {
    await this.call('archive', `/v1/conversations/${encodeURIComponent(session)}`, 'PATCH', this.o.archiveBody ?? { state: 'archived' }, true);
  }

  private async call(operation: string, path: string, method: string, body: unknown, idempotent: boolean): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.o.accessToken}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await fetchWithRetry({ target: 'agent', operation, url: this.o.baseUrl + path, init, idempotent }, this.o.policy, {
      fetch: this.o.fetch,
      observer: this.o.observer,
    });
    if (res.ok) return res;
    await res.body?.cancel().catch(() => {});
    // The conversation's own state, not a service failure: the widget offers a new one. Closed
    // (409) is an end someone made, and can be rated; unknown (404) is not.
    if (res.status === 404) throw new AppError('conversation_gone', 'This conversation is no longer available');
    if (res.status === 409) throw new AppError('conversation_archived', 'This conversation is closed');
    throw new UpstreamError('upstream_error', 'The service refused the request', { upstreamStatus: res.status });
  }
}

