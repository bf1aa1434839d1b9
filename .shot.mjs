import { chromium } from 'playwright-core';
const [url, out, w, h] = process.argv.slice(2);
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run'] });
const p = await (await b.newContext({ viewport: { width: +w, height: +h }, isMobile: +w < 500, hasTouch: +w < 500 })).newPage();
await p.goto(url); await p.waitForTimeout(800);
const r = await p.evaluate(() => { const h = document.querySelector('header.top'); const b = document.querySelector('.brand').getBoundingClientRect(); const hr = h.getBoundingClientRect(); return { header: hr.height, top: hr.top, brand: [b.x, b.y, b.width, b.height], pos: getComputedStyle(h).position, sw: document.documentElement.scrollWidth }; });
console.log(JSON.stringify(r));
await p.screenshot({ path: out });
await b.close();
