import { describe, expect, it } from 'vitest';
import { clientAddress, parseProxyTrust, type ProxyTrust } from './client-ip.js';

const trust = (raw: string) => parseProxyTrust(raw) as ProxyTrust | undefined;

describe('clientAddress', () => {
  it('believes no header without trust', () => {
    expect(clientAddress('203.0.113.9', '6.6.6.6', trust('false'))).toBe('203.0.113.9');
    expect(clientAddress('203.0.113.9', '6.6.6.6', undefined)).toBe('203.0.113.9');
    expect(clientAddress('203.0.113.9', '6.6.6.6', trust('0'))).toBe('203.0.113.9');
  });

  it('behind one proxy, takes the address it appended, never what the client wrote before it', () => {
    // nginx's $proxy_add_x_forwarded_for: the client's own header, then the address nginx saw.
    expect(clientAddress('10.0.0.2', '6.6.6.6, 198.51.100.7', trust('true'))).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.2', '198.51.100.7', trust('1'))).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.2', '6.6.6.6,198.51.100.7', trust('yes'))).toBe('198.51.100.7');
  });

  it('counts hops from the right (a CDN, then a load balancer)', () => {
    expect(clientAddress('10.0.0.2', '6.6.6.6, 198.51.100.7, 172.70.1.1', trust('2'))).toBe('198.51.100.7');
  });

  it('walks past listed proxies and CIDR ranges to the first address not on the list', () => {
    const list = trust('10.0.0.0/8, 172.70.1.1');
    expect(clientAddress('10.0.0.2', '6.6.6.6, 198.51.100.7, 172.70.1.1', list)).toBe('198.51.100.7');
    // The socket itself is not a listed proxy: the header is not read at all.
    expect(clientAddress('203.0.113.9', '6.6.6.6', list)).toBe('203.0.113.9');
    expect(clientAddress('127.0.0.1', '6.6.6.6, 198.51.100.7', trust('loopback'))).toBe('198.51.100.7');
    expect(clientAddress('::ffff:10.1.2.3', '2001:db8::1', trust('uniquelocal'))).toBe('2001:db8::1');
    expect(clientAddress('::1', '2001:db8::1', trust('loopback'))).toBe('2001:db8::1');
  });

  it('stops at the last address a trusted proxy saw when the header runs out or holds no address there', () => {
    expect(clientAddress('10.0.0.2', '198.51.100.7', trust('3'))).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.2', 'not-an-ip, 198.51.100.7', trust('2'))).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.2', '198.51.100.7, ', trust('1'))).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', undefined, trust('1'))).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', 'unknown', trust('10.0.0.0/8'))).toBe('10.0.0.2');
  });

  it('takes the address from an entry its proxy wrote with a port (Azure Application Gateway)', () => {
    expect(clientAddress('10.0.0.2', '6.6.6.6:1, 198.51.100.7:51234', trust('true'))).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.2', '[2001:db8::1]:443', trust('1'))).toBe('2001:db8::1');
    expect(clientAddress('10.0.0.2', '[2001:db8::1]', trust('1'))).toBe('2001:db8::1');
    expect(clientAddress('10.0.0.2', '198.51.100.7, 10.0.0.9:80', trust('10.0.0.0/8'))).toBe('198.51.100.7');
    // Still no address: the walk stops at the proxy, as for any other malformed entry.
    expect(clientAddress('10.0.0.2', '198.51.100.7:port', trust('1'))).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', '[not-an-ip]:443', trust('1'))).toBe('10.0.0.2');
  });

  it('never returns header text that is not an address, whatever the client wrote', () => {
    // Trusting more hops than there are (a misconfiguration) lets the client reach the walk: it
    // may then name an address, but not an arbitrary key for every request.
    for (const junk of ['unknown', 'x'.repeat(40), '1.2.3.4:5:6', '[::1', '::1]:80', '999.1.1.1'])
      expect(clientAddress('10.0.0.2', `${junk}, 198.51.100.7`, trust('3'))).toBe('198.51.100.7');
  });
});

describe('parseProxyTrust', () => {
  it('says what is wrong with a bad value', () => {
    expect(parseProxyTrust('11')).toMatch(/at most 10/);
    expect(parseProxyTrust('10.0.0.0/33')).toMatch(/"10.0.0.0\/33" is not/);
    expect(parseProxyTrust('proxy.internal')).toMatch(/"proxy.internal" is not/);
    expect(parseProxyTrust('10.0.0.0/8/1')).toMatch(/is not/);
    expect(parseProxyTrust('10.0.0.0/8,')).toMatch(/"" is not/);
    expect(parseProxyTrust('10.0.0.0/255.0.0.0')).toMatch(/is not/);
    expect(parseProxyTrust('-1')).toMatch(/is not/);
    expect(parseProxyTrust('2001:db8::/32, loopback')).toHaveProperty('list');
  });
});
