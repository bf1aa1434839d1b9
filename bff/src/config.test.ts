import { readFileSync } from 'node:fs';
import { DEFAULT_UPLOAD_TYPES } from './lib/upload-types.js';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, NOTHING_CONFIGURED, wantsDemo } from './config.js';
import { ENTRIES, publicSettings } from './config-schema/index.js';
import { renderConfigurationDoc, renderEnvExample } from './config-schema/render.js';

const upstream = {
  UPSTREAM_BASE_URL: 'https://api.example.com',
  UPSTREAM_ACCESS_TOKEN: 'tok-secret-value',
  AGENT_BOT_KEY: 'bot-secret-value',
  WEBHOOK_SECRET: 'wh-secret-one-0123,wh-secret-two-0123',
  SESSION_JWT_SECRET: 's'.repeat(32),
  ALLOWED_ORIGINS: 'https://www.example.com, https://shop.example.com/',
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('loadConfig', () => {
  it('runs the demo (DEMO=true, nothing else) with random secrets and the documented defaults', () => {
    const a = loadConfig({ DEMO: 'true' });
    const b = loadConfig({ DEMO: 'true' });
    expect(a).toMatchObject({ port: 8787, host: '0.0.0.0', simulator: true, allowedOrigins: ['*'], sessionTokenTtlSec: 900, refreshTokenTtlSec: 604800, chatMode: 'agent', gatewayRegion: 'eu', maxUploadBytes: 10485760, maxUploadFiles: 5, rateLimitSessionsPerMin: 20, rateLimitMessagesPerMin: 30, testChat: false });
    expect(a.sessionJwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(a.sessionJwtSecret).not.toBe(b.sessionJwtSecret);
    expect(Object.isFrozen(a)).toBe(true);
    expect(a.trustProxy).toBeUndefined();
  });

  it('reads TRUST_PROXY as the proxies to trust, and says what is wrong with a bad one', () => {
    expect(loadConfig({ DEMO: 'true', TRUST_PROXY: 'true' }).trustProxy).toEqual({ hops: 1 });
    expect(loadConfig({ DEMO: 'true', TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2 });
    expect(loadConfig({ DEMO: 'true', TRUST_PROXY: '10.0.0.0/8,loopback' }).trustProxy).toHaveProperty('list');
    expect(problems({ DEMO: 'true', TRUST_PROXY: 'lb.internal' })).toEqual(['TRUST_PROXY: "lb.internal" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal']);
  });

  describe('the demo only on purpose (docs/api.md "Operations")', () => {
    it('NODE_ENV=production with nothing configured refuses with one line naming the variables', () => {
      expect(problems({ NODE_ENV: 'production' })).toEqual([NOTHING_CONFIGURED]);
      expect(NOTHING_CONFIGURED).toMatch(/UPSTREAM_BASE_URL.*CHAT_MODE=model.*GATEWAY_BASE_URL.*DEMO=true/);
      // A model-only setting without its gateway host is still nothing to talk to.
      expect(problems({ NODE_ENV: 'production', CHAT_MODE: 'model' })).toContain(NOTHING_CONFIGURED);
    });

    it('DEMO=true runs the demo in production, with its own settings', () => {
      const c = loadConfig({ NODE_ENV: 'production', DEMO: 'true', SIM_REPLY_DELAY_MS: '5', SIM_DUPLICATE_RATE: '0.25', PUBLIC_ORIGIN: 'https://demo.example.com/' });
      expect(c).toMatchObject({ simulator: true, publicOrigin: 'https://demo.example.com', demo: { replyDelayMs: 5, duplicateRate: 0.25 } });
    });

    it("the demo's own pages may use the chat whatever ALLOWED_ORIGINS lists: PUBLIC_ORIGIN defaults to http://localhost:{PORT}", () => {
      expect(loadConfig({ DEMO: 'true', PORT: '18300', ALLOWED_ORIGINS: 'https://shop.example' }).publicOrigin).toBe('http://localhost:18300');
      expect(loadConfig({ DEMO: 'true' }).publicOrigin).toBe('http://localhost:8787');
      expect(loadConfig({ DEMO: 'true', PORT: '0' }).publicOrigin).toBeUndefined(); // a free port: the demo knows it once listening
      expect(loadConfig({ ...upstream }).publicOrigin).toBeUndefined();
    });

    it('a real configuration has no demo settings, and DEMO=true beside a real service is refused', () => {
      expect(loadConfig({ ...upstream, NODE_ENV: 'production' }).demo).toBeUndefined();
      expect(problems({ ...upstream, DEMO: 'true' })).toEqual([expect.stringMatching(/^DEMO=true runs the built-in simulator: unset UPSTREAM_BASE_URL/)]);
    });

    it('outside production, nothing configured and no DEMO still refuses the server alone (npm start picks the demo)', () => {
      expect(problems({})).toEqual([expect.stringMatching(/^Nothing to talk to: set UPSTREAM_BASE_URL/)]);
    });

    it.each([
      ['SIM_DUPLICATE_RATE', '1.5', /SIM_DUPLICATE_RATE must be a number from 0 to 1/],
      ['SIM_REPLY_DELAY_MS', '-1', /SIM_REPLY_DELAY_MS must be a whole number/],
      ['DEMO', 'maybe', /DEMO must be true or false/],
    ])('%s=%s is refused with a clear line', (name, value, pattern) => {
      expect(problems({ DEMO: 'true', [name]: value }).some((line) => pattern.test(line))).toBe(true);
    });

    it.each([
      [{}, true, 'a laptop with nothing configured'],
      [{ NODE_ENV: 'development' }, true, 'development'],
      [{ NODE_ENV: 'production' }, false, 'production with nothing configured (refused instead)'],
      [{ NODE_ENV: 'production', DEMO: 'true' }, true, 'production, on purpose'],
      [{ UPSTREAM_BASE_URL: 'https://api.example.com' }, false, 'a real service'],
      [{ CHAT_MODE: 'model', GATEWAY_BASE_URL: 'https://gw.example.com' }, false, 'a model-only deployment'],
      [{ DEMO: 'false' }, false, 'DEMO=false'],
    ] as [Record<string, string>, boolean, string][])('npm start runs the demo for %j: %s (%s)', (env, expected) => {
      expect(wantsDemo(env)).toBe(expected);
    });
  });

  it('parses a full upstream configuration', () => {
    const c = loadConfig({ ...upstream, FLOW_TOKENS: 'lead:tok1,upload:tok2', UPLOAD_FLOW: 'upload', USER_VARIABLES: 'email, plan', TEST_CHAT: 'true' });
    expect(c.webhookSecrets).toEqual(['wh-secret-one-0123', 'wh-secret-two-0123']);
    expect(c.allowedOrigins).toEqual(['https://www.example.com', 'https://shop.example.com']);
    expect(c.flowTokens).toEqual({ lead: 'tok1', upload: 'tok2' });
    expect(c.userVariables).toEqual(['email', 'plan']);
    expect(c.testChat).toBe(true);
  });

  it("takes SUPPORT_REPLY_TIME=hours as hour (the specification's spelling)", () => {
    expect(loadConfig({ DEMO: 'true', SUPPORT_REPLY_TIME: 'hours' }).supportReplyTime).toBe('hour');
    expect(loadConfig({ DEMO: 'true', SUPPORT_REPLY_TIME: 'hour' }).supportReplyTime).toBe('hour');
    expect(problems({ DEMO: 'true', SUPPORT_REPLY_TIME: 'weeks' })).toHaveLength(1);
  });

  it('takes the title and greeting as plain text or as a JSON object by language', () => {
    expect(loadConfig({ DEMO: 'true', WIDGET_TITLE: 'Nimbus help' }).widgetTitle).toBe('Nimbus help');
    const c = loadConfig({ DEMO: 'true', WIDGET_TITLE: '{"en":"Nimbus help","de":"Nimbus-Hilfe"}', WIDGET_GREETING: '{"fr":"Bonjour {chez} nous"}' });
    expect(c.widgetTitle).toEqual({ en: 'Nimbus help', de: 'Nimbus-Hilfe' });
    expect(c.widgetGreeting).toEqual({ fr: 'Bonjour {chez} nous' });
    for (const bad of ['{"en":', '{}', '{"english":"Help"}', '{"de":""}', '{"de":{"text":"Hilfe"}}']) {
      expect(problems({ DEMO: 'true', WIDGET_TITLE: bad })).toEqual(['WIDGET_TITLE must be text or a JSON object of two-letter language to text, like {"en":"Help","de":"Hilfe"}']);
    }
  });

  it('takes the AI mark as plain text or JSON by language; empty or blank is refused, not a silent removal', () => {
    expect(loadConfig({ DEMO: 'true' }).widgetAiLabel).toBeUndefined();
    expect(publicSettings(loadConfig({ DEMO: 'true' })).aiLabel).toBeUndefined();
    expect(publicSettings(loadConfig({ DEMO: 'true', WIDGET_AI_LABEL: 'Bot' })).aiLabel).toBe('Bot');
    expect(loadConfig({ DEMO: 'true', WIDGET_AI_LABEL: '{"en":"AI","de":"KI"}' }).widgetAiLabel).toEqual({ en: 'AI', de: 'KI' });
    for (const empty of ['', '   ']) {
      expect(problems({ DEMO: 'true', WIDGET_AI_LABEL: empty })).toEqual([
        "WIDGET_AI_LABEL may not be empty: leave it unset for the widget's own words, or give other words",
      ]);
    }
    expect(problems({ DEMO: 'true', WIDGET_AI_LABEL: '{"de":""}' })).toHaveLength(1);
    expect(problems({ DEMO: 'true', WIDGET_AI_LABEL: 'x'.repeat(25) })).toEqual(['WIDGET_AI_LABEL may be at most 24 characters in every language']);
  });

  it('takes the starters as a |-separated list or as JSON by language of such lists, checking each list', () => {
    expect(loadConfig({ DEMO: 'true', WIDGET_STARTERS: 'Where is my order? | Sizes?|' }).widgetStarters).toEqual(['Where is my order?', 'Sizes?']);
    const c = loadConfig({ DEMO: 'true', WIDGET_STARTERS: '{"en":"Where is my order? | Sizes?","de":"Wo ist meine Bestellung? | Größen?"}' });
    const byLanguage = { en: ['Where is my order?', 'Sizes?'], de: ['Wo ist meine Bestellung?', 'Größen?'] };
    expect(c.widgetStarters).toEqual(byLanguage);
    expect(publicSettings(c).starters).toEqual(byLanguage);
    const seven = ['1', '2', '3', '4', '5', '6', '7'].map((n) => `Frage ${n}`).join(' | ');
    expect(problems({ DEMO: 'true', WIDGET_STARTERS: JSON.stringify({ en: 'Fine | Also fine', de: seven, fr: `${'x'.repeat(101)} | Court` }) })).toEqual([
      'WIDGET_STARTERS (de) takes at most 6 questions of 100 characters each, separated by |',
      'WIDGET_STARTERS (fr) takes at most 6 questions of 100 characters each, separated by |',
    ]);
    expect(problems({ DEMO: 'true', WIDGET_STARTERS: 'x'.repeat(101) })).toEqual(['WIDGET_STARTERS takes at most 6 questions of 100 characters each, separated by |']);
    for (const bad of ['{"en":"Where is my order?"', '{}', '{"english":"Sizes?"}', '{"de":["Wo?","Größen?"]}']) {
      expect(problems({ DEMO: 'true', WIDGET_STARTERS: bad }), bad).toEqual(['WIDGET_STARTERS must be text or a JSON object of two-letter language to text, like {"en":"Help","de":"Hilfe"}']);
    }
  });

  it('refuses a bot name or consent text longer than the widget shows, instead of cutting it', () => {
    expect(loadConfig({ DEMO: 'true', WIDGET_BOT_NAME: 'é'.repeat(100), CONSENT_TEXT: 'x'.repeat(500) })).toMatchObject({ widgetBotName: 'é'.repeat(100), consentText: 'x'.repeat(500) });
    expect(problems({ DEMO: 'true', WIDGET_BOT_NAME: 'x'.repeat(101), CONSENT_TEXT: 'x'.repeat(501) })).toEqual([
      'WIDGET_BOT_NAME may be at most 100 characters',
      'CONSENT_TEXT may be at most 500 characters',
    ]);
  });

  it('reads CONSENT_TEXT per language like WIDGET_TITLE, each text at most 500 characters', () => {
    const consent = { en: 'You may email me.', de: 'Sie dürfen mir schreiben.', ar: 'يمكنكم مراسلتي.' };
    expect(loadConfig({ DEMO: 'true', CONSENT_TEXT: JSON.stringify(consent) }).consentText).toEqual(consent);
    expect(problems({ DEMO: 'true', CONSENT_TEXT: JSON.stringify({ en: 'ok', fr: 'x'.repeat(501) }) })).toEqual(['CONSENT_TEXT (fr) may be at most 500 characters']);
    expect(problems({ DEMO: 'true', CONSENT_TEXT: '{"german":"Ja"}' })).toEqual(['CONSENT_TEXT must be text or a JSON object of two-letter language to text, like {"en":"Help","de":"Hilfe"}']);
  });

  it('names every missing secret at once with upstream, and never prints values', () => {
    const p = problems({ UPSTREAM_BASE_URL: 'https://api.example.com', UPSTREAM_ACCESS_TOKEN: 'tok-secret-value' });
    expect(p).toEqual(expect.arrayContaining(['AGENT_BOT_KEY is required', 'WEBHOOK_SECRET is required', 'SESSION_JWT_SECRET is required', 'ALLOWED_ORIGINS is required']));
    expect(p.join('\n')).not.toContain('tok-secret-value');
  });

  it.each([
    ['PORT', 'eighty', /PORT must be a whole number/],
    ['PORT', '70000', /PORT must be a whole number/],
    ['SESSION_JWT_SECRET', 'short', /at least 32 bytes/],
    ['ALLOWED_ORIGINS', '*', /may be \* only in the demo/],
    ['ALLOWED_ORIGINS', 'https://x.com/path', /not an origin/],
    ['REDIS_URL', 'http://localhost:6379', /REDIS_URL must be a redis/],
    ['REDIS_CLUSTER_NODES', '127.0.0.1', /REDIS_CLUSTER_NODES must be host:port pairs/],
    ['REDIS_CLUSTER_NODES', 'a:1,b:99999', /REDIS_CLUSTER_NODES must be host:port pairs/],
    ['TEST_CHAT', 'maybe', /TEST_CHAT must be true or false/],
    ['CHAT_MODE', 'robot', /CHAT_MODE must be one of agent, model/],
    ['GATEWAY_REGION', 'us', /GATEWAY_REGION must be one of eu, global/],
    ['ESCALATION_OPERATOR_EMAIL', 'not-an-email', /ESCALATION_OPERATOR_EMAIL must be an email/],
    ['FLOW_TOKENS', 'no-colon', /FLOW_TOKENS must look like/],
    ['UPLOAD_FLOW', 'missing', /UPLOAD_FLOW names "missing"/],
    ['UPSTREAM_BASE_URL', 'ftp://x', /UPSTREAM_BASE_URL must be an http/],
    ['USER_VARIABLES', 'plan,verifiedUserId', /USER_VARIABLES may not name verifiedUserId/],
    ['CONTACT_VARIABLES', 'verifiedEmail,name', /CONTACT_VARIABLES may not name verifiedEmail/],
    ['CONTACT_VARIABLES', 'email,verifiedUserId', /CONTACT_VARIABLES may not name verifiedUserId/],
    ['LOCALE_VARIABLE', 'verifiedEmail', /LOCALE_VARIABLE may not name verifiedEmail/],
    ['IDENTITY_SECRET', 'short', /IDENTITY_SECRET must be at least 32 bytes/],
    ['IDENTITY_JWKS_URL', 'file:///etc/keys', /IDENTITY_JWKS_URL must be an http/],
    ['IDENTITY_REQUIRED', 'true', /IDENTITY_REQUIRED=true needs IDENTITY_SECRET or IDENTITY_JWKS_URL/],
    ['IDENTITY_SECRET', 's'.repeat(32), /IDENTITY_SECRET must differ from SESSION_JWT_SECRET/],
    ['WEBHOOK_SECRET', 'short-secret', /WEBHOOK_SECRET must be at least 16 characters/],
    ['WEBHOOK_SECRET', 'a-long-enough-secret-1,short', /WEBHOOK_SECRET must be at least 16 characters/],
    ['DEDUP_TTL_SEC', '120', /DEDUP_TTL_SEC must be a whole number from 300 to 2592000/],
    ['DEDUP_TTL_SEC', '59', /DEDUP_TTL_SEC must be a whole number from 300 to 2592000/],
  ])('%s=%s is refused with a clear line', (name, value, pattern) => {
    const p = problems({ ...upstream, [name]: value });
    expect(p.some((line) => pattern.test(line) && line.includes(name))).toBe(true);
    expect(p.join('\n')).not.toContain('s'.repeat(32));
  });

  it('takes REDIS_CLUSTER_NODES as seed nodes (IPv6 in brackets), but not together with REDIS_URL', () => {
    const c = loadConfig({ ...upstream, REDIS_CLUSTER_NODES: 'redis-a:7000, [::1]:7001' });
    expect(c.redisClusterNodes).toEqual([{ host: 'redis-a', port: 7000 }, { host: '::1', port: 7001 }]);
    expect(c.redisUrl).toBeUndefined();
    const p = problems({ ...upstream, REDIS_URL: 'redis://r:6379', REDIS_CLUSTER_NODES: 'redis-a:7000' });
    expect(p).toContain('Set REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both');
  });

  it('a model-only deployment (CHAT_MODE=model, GATEWAY_BASE_URL, no service host) is real, not the demo', () => {
    const model = { CHAT_MODE: 'model', GATEWAY_BASE_URL: 'https://gw.example.com', SESSION_JWT_SECRET: 's'.repeat(32), ALLOWED_ORIGINS: 'https://www.example.com' };
    expect(problems({ ...model })).toEqual(['GATEWAY_API_KEY is required', 'GATEWAY_MODEL is required']);
    const c = loadConfig({ ...model, GATEWAY_API_KEY: 'k', GATEWAY_MODEL: 'mistral/mistral-small' });
    expect(c).toMatchObject({ simulator: false, chatMode: 'model', allowedOrigins: ['https://www.example.com'], sessionJwtSecret: 's'.repeat(32) });
    // No agent secrets asked for; flows need the service host and a webhook secret for their results.
    expect(problems({ ...model, GATEWAY_API_KEY: 'k', GATEWAY_MODEL: 'm/m', FLOW_TOKENS: 'lead:t' }).sort()).toEqual([
      'FLOW_TOKENS needs UPSTREAM_BASE_URL: flows run on the service host',
      'WEBHOOK_SECRET is required',
    ]);
    expect(problems({ CHAT_MODE: 'model', GATEWAY_BASE_URL: 'https://gw.example.com' })).toContain('ALLOWED_ORIGINS is required');
  });

  it('requires the gateway key and model in model mode with a real upstream', () => {
    expect(problems({ ...upstream, CHAT_MODE: 'model' })).toEqual(['GATEWAY_API_KEY is required', 'GATEWAY_MODEL is required']);
  });

  it('never prints a secret, whatever is wrong with it (every entry marked secret)', () => {
    const secrets = ENTRIES.filter(([, entry]) => entry.secret).map(([, entry]) => entry.env);
    expect(secrets).toEqual(expect.arrayContaining(['SESSION_JWT_SECRET', 'WEBHOOK_SECRET', 'IDENTITY_SECRET', 'GATEWAY_API_KEY']));
    for (const name of secrets) {
      // Too short, malformed or clashing: whatever line it gets must not contain the value.
      for (const value of ['x-secret-x', ' :x-secret-x', 's'.repeat(32)]) {
        const p = problems({ ...upstream, FEEDBACK_WEBHOOK_URL: 'https://votes.example.com', [name]: value });
        expect(p.join('\n'), name).not.toContain(value.trim());
      }
    }
  });

  it('sends exactly the settings marked public to browsers', () => {
    const c = loadConfig({ DEMO: 'true', WIDGET_TITLE: 'Help', WIDGET_ACCENT: '#123', MAX_UPLOAD_FILES: '3', USER_VARIABLES: 'plan' });
    expect(publicSettings(c)).toEqual({ mode: 'agent', userVariables: ['plan'], title: 'Help', theme: { accent: '#123', position: 'right', scheme: 'auto' }, limits: { maxUploadBytes: 10485760, maxUploadFiles: 3, uploadTypes: [...DEFAULT_UPLOAD_TYPES] }, csat: 'always' });
    expect(JSON.stringify(publicSettings(c))).not.toContain(c.sessionJwtSecret);
  });

  it('has one schema entry per variable, each documented', () => {
    const names = ENTRIES.map(([, entry]) => entry.env);
    expect(new Set(names).size).toBe(names.length);
    for (const [key, entry] of ENTRIES) expect(entry.doc && entry.default, key).toBeTruthy();
  });

  it.each([
    ['docs/configuration.md', renderConfigurationDoc],
    ['.env.example', renderEnvExample],
  ])('%s is the one the schema generates (run npm run docs:config)', (path, render) => {
    expect(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')).toBe(render());
  });
});
