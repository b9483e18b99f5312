// The store's words for the model's calendar verdicts (contracts/model/calendar-rules.ts): the code, message and
// field a refused post or term write answers with. These reach API clients as WordPress-style errors, so they are
// kept byte for byte as the store has always said them (mock/src/store/calendar-writes.test.ts pins them).

import type { CalendarBreak } from '../../../contracts/model/calendar-rules.ts';
import type { CalendarTable } from '../../../contracts/model/world.ts';
import { StoreError } from './store-error.ts';

/** The refusal of a write to a record of `type` that breaks a calendar rule. */
export function calendarRefusal(type: CalendarTable, b: CalendarBreak): StoreError {
  const f = b.field;
  switch (b.kind) {
    case 'missing': {
      if (f === 'parent') return new StoreError('invalid_parent', `parent: no category with id ${b.id}`, f);
      if (f === 'author') return new StoreError('invalid_reference', `author: no user with id ${b.id}`, f);
      // A translation's original is looked up in its own table only; a reference says what else the ID names.
      const actual = f === 'translation_of' ? undefined : (b.names?.post ?? b.names?.term);
      return new StoreError('invalid_reference', actual ? `${f}: ${b.id} is a ${actual}, not a ${b.expected}` : `${f}: no ${b.expected} with id ${b.id}`, f);
    }
    // A parent category that makes a loop is repaired (term-rules.ts), never refused; a parent event is refused.
    case 'self':
      if (f === 'translation_of') return new StoreError('invalid_reference', 'translation_of: a record cannot translate itself', f);
      return new StoreError('invalid_parent', `${f}: ${b.id} would make a cycle`, f);
    case 'cycle':
      return new StoreError('invalid_parent', `${f}: ${b.path[1]} would make a cycle`, f);
    case 'same-language':
      return new StoreError('invalid_reference', `translation_of: ${type} ${b.original} is in the same language (${b.lang})`, f);
    case 'chained':
      return new StoreError('invalid_reference', `translation_of: ${type} ${b.original} is itself a translation of ${b.of}`, f);
    case 'taken':
      return new StoreError('conflict', `translation_of: ${type} ${b.original} already has a ${b.lang} translation`, f);
    case 'has-translations':
      return new StoreError('invalid_reference', `translation_of: ${type} ${b.id} has translations of its own, so it cannot become a translation`, f);
    case 'end-before-start':
      return new StoreError('invalid_value', `end_date: must not be before start_date (${b.start}), got ${b.end}`, f);
    case 'unknown-time-zone':
      return new StoreError('invalid_value', `${f}: unknown time zone ${JSON.stringify(b.value)}`, f);
    case 'slug-taken':
      return new StoreError('duplicate_slug', `slug: ${JSON.stringify(b.slug)} is already used by another ${type}`, f);
  }
}

/** Refuses the write if the verdict found a break. */
export function refuseCalendar(type: CalendarTable, b: CalendarBreak | undefined): void {
  if (b) throw calendarRefusal(type, b);
}
