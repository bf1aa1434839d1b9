/** The environment as typed values: each reader records a problem (never the value) for a bad variable. */

import type { LocalizedText } from '../../shared/types.js';

export type Env = Record<string, string | undefined>;

/** Reads variables one at a time, recording a problem (never the value) for each bad one. */
export class Parser {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  /** Adds one line to the start-up report (a rule of the variable's own, never its value). */
  report(line: string): void {
    this.problems.push(line);
  }

  /** The same environment, read without reporting (a default computed from other variables). */
  quiet(): Parser {
    return new Parser(this.env, []);
  }

  optional(name: string): string | undefined {
    const raw = this.env[name]?.trim();
    return raw === undefined || raw === '' ? undefined : raw;
  }

  string(name: string, fallback?: string): string {
    const raw = this.optional(name);
    if (raw !== undefined) return raw;
    if (fallback === undefined) {
      this.problems.push(`${name} is required`);
      return '';
    }
    return fallback;
  }

  /** Optional text of at most `maxLength` characters: longer is refused, not cut without a word. */
  text(name: string, maxLength: number): string | undefined {
    const raw = this.optional(name);
    if (raw === undefined || [...raw].length <= maxLength) return raw;
    this.problems.push(`${name} may be at most ${maxLength} characters`);
    return undefined;
  }

  list(name: string, fallback?: string[]): string[] {
    const raw = this.optional(name);
    if (raw === undefined) {
      if (fallback === undefined) this.problems.push(`${name} is required`);
      return fallback ?? [];
    }
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return Number(raw);
  }

  /** A decimal number from `min` to `max` (e.g. a rate from 0 to 1). */
  number(name: string, fallback: number, min: number, max: number): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      this.problems.push(`${name} must be a number from ${min} to ${max}`);
      return fallback;
    }
    return Number(raw);
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.optional(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['true', '1', 'yes', 'on'].includes(raw)) return true;
    if (['false', '0', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${name} must be true or false`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')}`);
    return fallback;
  }

  url(name: string): string | undefined {
    const raw = this.optional(name);
    if (raw === undefined) return undefined;
    try {
      const u = new URL(raw);
      if (u.protocol === 'http:' || u.protocol === 'https:') return raw;
    } catch {
      // reported below
    }
    this.problems.push(`${name} must be an http or https URL`);
    return undefined;
  }

  redisUrl(name: string): string | undefined {
    const raw = this.optional(name);
    if (raw === undefined) return undefined;
    if (/^rediss?:\/\/\S+$/.test(raw)) return raw;
    this.problems.push(`${name} must be a redis:// or rediss:// URL`);
    return undefined;
  }

  /** `host:port,host:port…` (IPv6 hosts in brackets), e.g. the seed nodes of a Redis Cluster. */
  hostPorts(name: string): Array<{ host: string; port: number }> | undefined {
    const raw = this.optional(name);
    if (raw === undefined) return undefined;
    const nodes = raw.split(',').map((entry) => /^\[?([^\s\[\]]+?)\]?:(\d{1,5})$/.exec(entry.trim()));
    if (nodes.every((match) => match !== null && Number(match[2]) >= 1 && Number(match[2]) <= 65535)) {
      return nodes.map((match) => ({ host: match![1]!, port: Number(match![2]) }));
    }
    this.problems.push(`${name} must be host:port pairs separated by commas`);
    return undefined;
  }

  email(name: string): string | undefined {
    const raw = this.optional(name);
    if (raw === undefined) return undefined;
    if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(raw)) return raw;
    this.problems.push(`${name} must be an email address`);
    return undefined;
  }

  /** Text, or a JSON object of two-letter language → text (`{"en":"Help","de":"Hilfe"}`). */
  localizedText(name: string): LocalizedText | undefined {
    const raw = this.optional(name);
    if (raw === undefined || !raw.startsWith('{')) return raw;
    try {
      const parsed: unknown = JSON.parse(raw);
      const entries = Object.entries(parsed as Record<string, unknown>);
      const valid = entries.length > 0 && entries.every(([lang, text]) => /^[a-z]{2}$/.test(lang) && typeof text === 'string' && text.trim() !== '');
      if (valid) return parsed as Record<string, string>;
    } catch {
      // reported below
    }
    this.problems.push(`${name} must be text or a JSON object of two-letter language to text, like {"en":"Help","de":"Hilfe"}`);
    return undefined;
  }

  /**
   * A short label that may be renamed but never emptied: unset reads as `undefined` (the widget's own
   * words); set but blank, a JSON language with a blank text, or longer than `maxLength` is refused.
   */
  label(name: string, maxLength: number): LocalizedText | undefined {
    const set = this.env[name];
    if (set !== undefined && set.trim() === '') {
      this.problems.push(`${name} may not be empty: leave it unset for the widget's own words, or give other words`);
      return undefined;
    }
    const text = this.localizedText(name);
    const texts = typeof text === 'object' ? Object.values(text) : text === undefined ? [] : [text];
    if (texts.every((t) => [...t.trim()].length <= maxLength)) return text;
    this.problems.push(`${name} may be at most ${maxLength} characters in every language`);
    return undefined;
  }

  color(name: string, fallback: string): string {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (/^#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?$/.test(raw)) return raw;
    this.problems.push(`${name} must be a hex colour like #4f46e5`);
    return fallback;
  }
}
