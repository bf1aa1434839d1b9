import { describe, expect, it } from 'vitest';
import { settle } from './settle.js';

describe('settle: streaming Markdown without flicker', () => {
  it('closes an open code fence so the block shows at once', () => {
    expect(settle('Run:\n\n```sh\nnpm i')).toBe('Run:\n\n```sh\nnpm i\n```');
    expect(settle('~~~~\ncode')).toBe('~~~~\ncode\n~~~~');
    // The closing fence still arriving is not shown as code.
    expect(settle('```\nnpm i\n``')).toBe('```\nnpm i\n```');
    expect(settle('```\na\n```\n\nDone')).toBe('```\na\n```\n\nDone');
  });

  it('holds back an inline mark until it closes', () => {
    expect(settle('Order **free')).toBe('Order');
    expect(settle('Order **free**')).toBe('Order **free**');
    expect(settle('Use `NO-48')).toBe('Use');
    expect(settle('Use ``a ` b`` now *so')).toBe('Use ``a ` b`` now');
    expect(settle('was ~~€5')).toBe('was');
    expect(settle('_soon')).toBe('');
    expect(settle('**a *b* c')).toBe('');
  });

  it('holds back a link until it is complete', () => {
    expect(settle('See [returns')).toBe('See');
    expect(settle('See [returns](https://shop.exa')).toBe('See');
    expect(settle('See [returns]')).toBe('See');
    expect(settle('See [returns](https://shop.example/r) now')).toBe('See [returns](https://shop.example/r) now');
    expect(settle('- [ ] pack it')).toBe('- [ ] pack it');
  });

  it('leaves text that only looks like marks', () => {
    for (const text of ['5 * 3 = 15', 'snake_case_name', '* item', 'a ~ b', '\\*not\\*']) expect(settle(text)).toBe(text);
  });

  it('holds back only the last paragraph', () => {
    expect(settle('**Done**.\n\nNext *st')).toBe('**Done**.\n\nNext');
    expect(settle('One\n\n- two\n- ')).toBe('One\n\n- two');
    expect(settle('Intro\n\n#')).toBe('Intro\n');
  });

  it('holds back a table until its delimiter row has ended', () => {
    expect(settle('Sizes:\n\n| Size | EU |')).toBe('Sizes:\n');
    expect(settle('| Size | EU |\n|---|--')).toBe('');
    expect(settle('| Size | EU |\n|---|---|\n| M')).toBe('| Size | EU |\n|---|---|\n| M');
  });
});
