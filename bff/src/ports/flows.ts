import type { VariableValue } from './upstream.js';

/** A flow trigger as the BFF sends it (area C). Files make it a multipart request. */
export interface FlowTriggerInput {
  /** The conversation the flow runs in; a positive integer on the wire (omitted otherwise). */
  sessionId?: number;
  variables: Record<string, VariableValue>;
  /** Already size-checked by the route; each keeps its name and MIME type. */
  files?: File[];
}

/** A file item of `IncomingWebhookDto` (normally filled in by the service from a multipart upload). */
export interface FlowFileItem {
  name: string;
  mimeType: string;
  size: number;
  fileUri: string;
  md5: string;
}

/** The JSON trigger body, `IncomingWebhookDto`. */
export interface IncomingWebhookDto {
  sessionId?: number;
  data?: Record<string, VariableValue>;
  files?: FlowFileItem[];
}

/**
 * Flow triggers (area C). The webhook token is a secret: it only ever appears in the path
 * of the upstream request, never in errors, logs or responses.
 */
export interface FlowClient {
  /** `POST /webhook/{token}`; resolves with the service's `jobId`. */
  triggerFlow(token: string, input: FlowTriggerInput): Promise<{ jobId: string }>;
  /** `POST /webhook/test/{userId}`: delivers a sample payload to a dashboard user. */
  testFlow(userId: string, payload: IncomingWebhookDto): Promise<{ jobId: string }>;
}
