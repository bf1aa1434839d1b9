// npm run docs:config: writes docs/configuration.md and .env.example from the configuration schema.
import { writeFileSync } from 'node:fs';
import { renderConfigurationDoc, renderEnvExample } from '../bff/src/config-schema/render.js';

const root = new URL('../', import.meta.url);
writeFileSync(new URL('docs/configuration.md', root), renderConfigurationDoc());
writeFileSync(new URL('.env.example', root), renderEnvExample());
console.log('wrote docs/configuration.md and .env.example');
