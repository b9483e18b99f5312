// The committed fixture files as one set, for the model's tests: read from disk, not imported, since the model may
// not import fixture data (.ci/layers), and under the names the loader's messages give them.
import { readFileSync } from 'node:fs';
import type { PartLocator } from '../integrity.ts';
import type { FixtureSet } from '../records.ts';

const read = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../../fixtures/${name}.json`, import.meta.url), 'utf8'));

/** A fresh copy of the committed fixtures each call, so a test may break it. */
export const bundledFixtures = (): FixtureSet => ({ calendar: read('calendar'), addons: read('addons'), users: read('users') }) as FixtureSet;

/** Each part in its own file at the top, as the committed fixtures lay them out. */
export const BUNDLED_FILES: PartLocator = {
  calendar: { file: 'calendar.json', prefix: '' },
  addons: { file: 'addons.json', prefix: '' },
  users: { file: 'users.json', prefix: '' },
};
