/** Sending chosen files to `POST /api/upload` with progress (upload.ts decides what and when); in the parts chunk, as few visitors send files. */
import { ApiError, refusal } from './api.js';
import type { RouteKey } from '../../shared/routes.js';
import type { Outgoing } from './state.js';

/**
 * Posts the item's files (and its text, unless that already arrived) as multipart with `token`;
 * `XMLHttpRequest` because `fetch` reports no upload progress. `progress` gets the bytes of the files sent so far.
 */
export function postFiles(bff: string, token: string, item: Outgoing, progress: (loaded: number) => void): Promise<unknown> {
  const form = new FormData();
  for (const f of item.files!) form.append('files', f);
  if (!item.sent) {
    form.append('text', item.text);
    form.append('clientId', item.clientId);
  }
  return new Promise((ok, fail) => {
    const x = new XMLHttpRequest();
    // Its key in the route table: the method, a space and the path.
    const [method, path] = ('POST /api/upload' satisfies RouteKey).split(' ') as [string, string];
    x.open(method, bff + path);
    x.setRequestHeader('authorization', 'Bearer ' + token);
    // The multipart framing is spread over the files in proportion: `loaded` in file bytes.
    const bytes = item.files!.reduce((n, f) => n + f.size, 0);
    x.upload.onprogress = (e) => e.lengthComputable && progress((e.loaded / e.total) * bytes);
    x.onload = () => {
      let data: unknown = {};
      try {
        data = JSON.parse(x.responseText);
      } catch {
        // an empty or non-JSON body: the status alone decides
      }
      if (x.status < 300) ok(data);
      else fail(refusal(x.status, data));
    };
    // Like a rejected fetch: no answer at all, so the outbox tries again later.
    x.onerror = x.onabort = () => fail(new ApiError(0, 'network', 'Upload failed'));
    x.send(form);
  });
}
