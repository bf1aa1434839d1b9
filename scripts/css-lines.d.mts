import type { Plugin } from 'vite';

export declare function joinRules(css: string, where?: string): string;
export declare function cssLines(): Plugin;
export declare function badgeCss(dir: string): string;
