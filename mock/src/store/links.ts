// References between records as the store's writes check and keep them, shared by the post, term and add-on
// writes: refusals for an event's or a translation's broken reference, and what goes when the record it points at
// goes. What an ID is (postTypeOf) is the model's (contracts/model/world.ts).

import type { Lang, PostType, TermType } from '../../../contracts/model/records.ts';
import { postTypeOf } from '../../../contracts/model/world.ts';
import { StoreError } from './store-error.ts';
import type { Tx } from './transaction.ts';

/** Every ID must name a record of `table`; otherwise a refusal saying what it names instead. */
export function checkRefs(tx: Tx, ids: readonly number[], table: PostType | TermType, what: string, field: string): void {
  for (const id of ids) {
    if (!tx.has(table, id)) {
      const actual = postTypeOf(tx, id) ?? (tx.has('category', id) ? 'category' : tx.has('tag', id) ? 'tag' : undefined);
      throw new StoreError('invalid_reference', actual ? `${field}: ${id} is a ${actual}, not a ${what}` : `${field}: no ${what} with id ${id}`, field);
    }
  }
}

/** A translation links an original of another language that is no translation itself, once per language. */
export function checkTranslation(tx: Tx, type: PostType | TermType, rec: { id: number; lang: Lang; translation_of?: number }): void {
  if (rec.translation_of === undefined) return;
  const original = tx.get(type, rec.translation_of);
  if (!original) throw new StoreError('invalid_reference', `translation_of: no ${type} with id ${rec.translation_of}`, 'translation_of');
  if (original.id === rec.id) throw new StoreError('invalid_reference', 'translation_of: a record cannot translate itself', 'translation_of');
  if (original.lang === rec.lang) throw new StoreError('invalid_reference', `translation_of: ${type} ${original.id} is in the same language (${rec.lang})`, 'translation_of');
  if (original.translation_of !== undefined) throw new StoreError('invalid_reference', `translation_of: ${type} ${original.id} is itself a translation of ${original.translation_of}`, 'translation_of');
  const find = (p: (r: { id: number; lang: Lang; translation_of?: number }) => boolean) => tx.find(type, p as never);
  if (find((r) => r.id !== rec.id && r.translation_of === original.id && r.lang === rec.lang)) {
    throw new StoreError('conflict', `translation_of: ${type} ${original.id} already has a ${rec.lang} translation`, 'translation_of');
  }
  if (find((r) => r.translation_of === rec.id)) {
    throw new StoreError('invalid_reference', `translation_of: ${type} ${rec.id} has translations of its own, so it cannot become a translation`, 'translation_of');
  }
}

/** Translations of a deleted record lose their link. */
export function dropTranslationLinks(tx: Tx, type: PostType | TermType, id: number): void {
  for (const r of tx.values(type) as readonly { id: number; translation_of?: number }[]) {
    if (r.translation_of === id) {
      const { translation_of: _gone, ...rest } = r;
      tx.put(type, rest as never);
    }
  }
}

/** Add-on records about a deleted post, term or user (SEO data, translation jobs) go with it. */
export function dropObjectRecords(tx: Tx, objectType: 'post' | 'term' | 'user', id: number): void {
  tx.delete('seoRedirections', `${objectType}:${id}`);
  tx.delete('seoObjects', `${objectType}:${id}`);
  if (objectType === 'post') {
    for (const j of tx.values('translationJobs')) if (j.elementType === 'post' && j.elementId === id) tx.delete('translationJobs', j.id);
  }
}
