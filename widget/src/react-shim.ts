/**
 * What markdown-to-jsx 7 takes from `import * as React from 'react'` (vite.config.ts points `react`
 * here): Preact's own `createElement` and `cloneElement`, so neither React nor preact/compat is bundled.
 */
export { cloneElement, createElement } from 'preact';
