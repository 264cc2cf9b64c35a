#!/usr/bin/env node
// A consumer of the Kedai event feed (see the README's "Integrator's guide"): reads the account's events from where it
// stopped last time, prints each as one line of JSON (replace `handle` with your own work), and saves the position.
//
//   KEDAI_URL           where Kedai runs (default http://127.0.0.1:3000)
//   KEDAI_APP_KEY       the app's API key (Settings → Apps)
//   FEED_POSITION_FILE  where the position is kept between runs (default .feed-position)
//   FEED_TYPES          comma-separated event types, a subset of the app's (default: all of the app's)
//   FEED_FOLLOW=1       keep polling for new events instead of stopping at the end of the log
import { readFile, rename, writeFile } from 'node:fs/promises';

const base = process.env.KEDAI_URL ?? 'http://127.0.0.1:3000';
const key = process.env.KEDAI_APP_KEY;
const positionFile = process.env.FEED_POSITION_FILE ?? '.feed-position';
const types = process.env.FEED_TYPES;
const follow = process.env.FEED_FOLLOW === '1';
const limit = 1000;

if (!key) {
  console.error('Set KEDAI_APP_KEY to the API key of an app (Settings → Apps).');
  process.exit(2);
}

/** Your work. An event may come twice (a crash before the position was saved): use `event.id` to skip repeats. */
function handle(event) {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let after = (await readFile(positionFile, 'utf8').catch(() => '')).trim();
for (;;) {
  const url = new URL('/api/feed/events', base);
  url.searchParams.set('limit', String(limit));
  if (after) url.searchParams.set('after', after);
  if (types) url.searchParams.set('types', types);
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  if (response.status === 429) {
    await sleep(Number(response.headers.get('retry-after') ?? 1) * 1000);
    continue;
  }
  const answer = await response.json();
  if (!response.ok) {
    console.error(`Kedai refused the read (${response.status}, code ${answer.code}): ${answer.msg}`);
    process.exit(1);
  }
  for (const event of answer.data.events) handle(event);
  // Saved after the page is handled, through a rename so that a crash leaves the old position or the new one.
  after = answer.data.next;
  await writeFile(`${positionFile}.tmp`, after);
  await rename(`${positionFile}.tmp`, positionFile);
  if (answer.data.events.length < limit) {
    if (!follow) break;
    await sleep(1000);
  }
}
