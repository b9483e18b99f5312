// References between records as the store's writes keep them, shared by the post, term and add-on writes: what
// goes when the record they point at goes. Whether a reference may be written is the model's verdict
// (contracts/model/calendar-rules.ts, addon-rules.ts).

import type { PostType, TermType } from '../../../contracts/model/records.ts';
import type { Tx } from './transaction.ts';

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
