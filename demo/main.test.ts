import { describe, expect, it } from 'vitest';
import { demoPages, withDemoDefaults } from './main.js';

describe('the demo on this machine or the network', () => {
  it('listens on 127.0.0.1 when it runs because nothing was configured, everywhere when DEMO=true asks for it, and as HOST says', () => {
    expect(withDemoDefaults({}).HOST).toBe('127.0.0.1');
    expect(withDemoDefaults({ DEMO: 'true' }).HOST).toBe('0.0.0.0'); // the image: its port is published
    expect(withDemoDefaults({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(withDemoDefaults({ DEMO: 'true', HOST: '127.0.0.1' }).HOST).toBe('127.0.0.1');
  });

  it('says when anyone on the network can reach its console, which has no sign-in', () => {
    expect(demoPages('http://localhost:8787/', '127.0.0.1')).toMatch(/Only this machine can reach it/);
    for (const host of ['0.0.0.0', '::']) {
      const pages = demoPages('http://localhost:8787', host);
      expect(pages).toContain(`every network interface (HOST=${host})`);
      expect(pages).toContain('Operator console                http://localhost:8787/console');
    }
  });
});
