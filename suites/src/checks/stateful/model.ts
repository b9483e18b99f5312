// The stateful phase's model of the site: what the suite's own records are after a sequence of operations, and
// what each answer should then be, for each kind of client. The commands (commands.ts) send, hold the answer to
// what this model predicts, then move the model on; fast-check owns the model object for one sequence, so the
// moves change it in place.
//
// Predictions are exact where WordPress's posts controller decides and one request alone cannot show it (which of
// the suite's records a list holds, what a read shows after earlier writes, that a refused write changed nothing),
// and stay in classes where one answer on its own may differ between sites and another check judges it exactly:
// which 4xx hides a record (unknown_id, auth_status), what a DELETE without force answers (trash). So a sequence
// fails where the site contradicts itself or WordPress across steps, never a second time for a one-step deviation.

/** Who sends: the run's credentials, no credentials, or --low-auth-env's user. */
export type Who = 'admin' | 'anon' | 'low';

/** Statuses a create may ask for in cal/v1 without a date (`future` needs one; 000 §2.5, §4.2.1). */
export const LIVE_STATUSES = ['publish', 'draft', 'pending', 'private'] as const;
export type LiveStatus = (typeof LIVE_STATUSES)[number];
type State = LiveStatus | 'trash' | 'gone';

export interface ModelRecord {
  /** 1-based creation order within the sequence: `$ID1` in the replay script. */
  slot: number;
  /** The title as sent; an administrator has unfiltered_html, so it is what WordPress stores. */
  title: string;
  status: State;
}

/** What the target offers besides the resource's own routes, found before the sequences run. */
export interface Offers {
  low: boolean;
  batch: boolean;
  legacy: boolean;
}

/**
 * What the site turned out to allow, learned from the first answer that shows it and held for the rest of the run,
 * every sequence and shrink alike (one object per resource): the documents do not say which role the low-rights user
 * has, and whether anonymous clients may read a published record by id is the anonymous_read finding's to judge
 * (once), so the sequences hold the site to its own first answer rather than to a guess or to the same finding again.
 */
export interface Traits {
  lowReadsHidden?: boolean;
  lowEdits?: boolean;
  anonReadsPublished?: boolean;
}

export interface Model {
  offers: Offers;
  traits: Traits;
  records: ModelRecord[];
}

export function emptyModel(offers: Offers, traits: Traits): Model {
  return { offers, traits, records: [] };
}

export const isLive = (r: ModelRecord): boolean => r.status !== 'trash' && r.status !== 'gone';

/** The record a command's index names among those `keep` accepts; undefined when there is none. */
export function pick(model: Model, index: number, keep: (r: ModelRecord) => boolean): ModelRecord | undefined {
  const of = model.records.filter(keep);
  return of.length === 0 ? undefined : of[index % of.length];
}

type Visibility = 'shown' | 'hidden' | 'trash-or-hidden' | 'gone' | 'unknown';

/**
 * What a read by id should show to `who` (WP_REST_Posts_Controller::check_read_permission(): a published record to
 * anyone, any other status only to a user who may edit it; a trashed record reads with status "trash" to such a
 * user, where sites that hide their trash answer a 4xx instead, which the trash check judges).
 */
export function visibility(model: Model, rec: ModelRecord, who: Who): Visibility {
  const t = model.traits;
  if (rec.status === 'gone') return 'gone';
  if (who === 'admin') return rec.status === 'trash' ? 'trash-or-hidden' : 'shown';
  if (rec.status === 'publish') return who === 'anon' && t.anonReadsPublished !== true ? (t.anonReadsPublished === undefined ? 'unknown' : 'hidden') : 'shown';
  if (who === 'anon') return 'hidden';
  if (t.lowReadsHidden === undefined) return 'unknown';
  if (!t.lowReadsHidden) return 'hidden';
  return rec.status === 'trash' ? 'trash-or-hidden' : 'shown';
}

/**
 * The slots of the suite's records that a list searched for the sequence's word holds: the statuses asked for
 * (`publish` when none are: 000 §4.2.1's default) for a client who may ask for them, published ones for anyone else
 * (WordPress refuses other statuses to them: rest_forbidden_status).
 */
export function listed(model: Model, who: Who, statuses: readonly LiveStatus[] | undefined): number[] {
  const mayAsk = who === 'admin' || (who === 'low' && model.traits.lowReadsHidden === true);
  const shown: readonly State[] = mayAsk && statuses ? statuses : ['publish'];
  return model.records.filter((r) => shown.includes(r.status)).map((r) => r.slot);
}

export function addRecord(model: Model, title: string, status: LiveStatus): ModelRecord {
  const rec = { slot: model.records.length + 1, title, status };
  model.records.push(rec);
  return rec;
}

export function change(rec: ModelRecord, to: Partial<Omit<ModelRecord, 'slot'>>): void {
  Object.assign(rec, to);
}
