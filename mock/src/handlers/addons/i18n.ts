// Translation add-on (001 §4.3). State where the documents make it obvious: the string-settings flags, the custom
// XML configuration, string and package lists filtered and paged by limit/offset, ATE job data attached to a job,
// and the translation-manager registration. Answer shapes are the mock's (the documents show none).
import type { StringPackage, TranslationJob, TranslationSettings, TranslationString } from '../../../../contracts/model/records.ts';
import { STRING_KINDS, STRING_SOURCES } from '../../../../contracts/model/records.ts';
import type { Stored } from '../../store/store.ts';
import { ok, type HandlerCtx, type Reply } from '../context.ts';
import { arg, err, int, json, storeRefusal, str } from './util.ts';

function listParam(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string' && v !== '') return v.split(',').map((s) => s.trim());
  return [];
}

function stringMatches(s: Stored<TranslationString>, p: Record<string, unknown>): boolean {
  if (typeof p.kind === 'number' && s.kind !== p.kind) return false;
  if (typeof p.source === 'number' && s.source !== p.source) return false;
  if (typeof p.type === 'string' && p.type !== '' && s.type !== p.type.toUpperCase()) return false;
  if (typeof p.domain === 'string' && p.domain !== '' && s.domain !== p.domain) return false;
  if (typeof p.translationPriority === 'string' && p.translationPriority !== '' && s.priority !== p.translationPriority) return false;
  if (typeof p.title === 'string' && p.title !== '' && !`${s.name} ${s.value}`.toLowerCase().includes(p.title.toLowerCase())) return false;
  const statuses = listParam(p.translationStatuses);
  if (statuses.length && !statuses.includes(s.translations.uk?.status ?? 'not_translated')) return false;
  return true;
}

function sorted<T extends { id: number }>(items: T[], sorting: unknown, key: (t: T) => string): T[] {
  const s = typeof sorting === 'string' ? sorting.toLowerCase() : '';
  const desc = s.endsWith('desc');
  if (s === '') return items;
  return items.sort((a, b) => (desc ? -1 : 1) * (key(a).localeCompare(key(b)) || a.id - b.id));
}

function page<T>(items: T[], p: Record<string, unknown>): T[] {
  const limit = Math.max(0, int(p.limit) ?? 10);
  const offset = Math.max(0, int(p.offset) ?? 0);
  return items.slice(offset, offset + limit);
}

function strings(ctx: HandlerCtx): Stored<TranslationString>[] {
  const found = ctx.store.table('translationStrings').values().filter((s) => stringMatches(s, ctx.params));
  return sorted(found, ctx.params.sorting, (s) => s.value);
}

function packages(ctx: HandlerCtx): Stored<StringPackage>[] {
  const p = ctx.params;
  const statuses = listParam(p.translationStatuses);
  const found = ctx.store.table('stringPackages').values().filter((k) => {
    if (typeof p.type === 'string' && p.type !== '' && k.kind !== p.type) return false;
    if (typeof p.title === 'string' && p.title !== '' && !k.title.toLowerCase().includes(p.title.toLowerCase())) return false;
    if (typeof p.sourceLanguageCode === 'string' && p.sourceLanguageCode !== '' && k.sourceLanguageCode !== p.sourceLanguageCode) return false;
    if (statuses.length && !statuses.includes(k.translationStatuses.uk ?? 'not_translated')) return false;
    return true;
  });
  return sorted(found, p.sorting, (k) => k.title);
}

const isNameStart = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const isNameChar = (c: number) => isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d;

/**
 * Elements open and close in order; tags, processing instructions and comments end. One pass: each `<` is read up to
 * its `>` (or its `?>`, `-->`).
 */
function isWellFormedXml(xml: string): boolean {
  const stack: string[] = [];
  for (let lt = xml.indexOf('<'); lt >= 0; ) {
    const special = xml.startsWith('<?', lt) ? '?>' : xml.startsWith('<!--', lt) ? '-->' : undefined;
    if (special) {
      const end = xml.indexOf(special, lt + 2);
      if (end < 0) return false;
      lt = xml.indexOf('<', end + special.length);
      continue;
    }
    let j = lt + 1;
    const closing = xml[j] === '/';
    if (closing) j++;
    if (!isNameStart(xml.charCodeAt(j))) {
      lt = xml.indexOf('<', lt + 1);
      continue;
    }
    const nameStart = j;
    while (isNameChar(xml.charCodeAt(j))) j++;
    const gt = xml.indexOf('>', j);
    if (gt < 0) return false;
    const name = xml.slice(nameStart, j);
    const selfClosing = gt > j && xml[gt - 1] === '/';
    if (!selfClosing) {
      if (closing) {
        if (stack.pop() !== name) return false;
      } else stack.push(name);
    }
    lt = xml.indexOf('<', gt + 1);
  }
  return stack.length === 0;
}

export function i18nHandler(ctx: HandlerCtx): Reply {
  const { op, store } = ctx;
  const path = op.path;
  switch (path) {
    case '/i18n/v1/custom-xml-config': {
      if (op.method === 'GET') return ok({ xml: store.get('customXmlConfig') });
      const xml = str(arg(ctx, 'xml')) ?? str(arg(ctx, 'config'));
      if (xml === undefined) return err('i18n_missing_xml', 'Send the configuration as `xml`.', 400);
      if (!isWellFormedXml(xml)) return err('i18n_invalid_xml', 'The configuration is not well-formed XML.', 400);
      store.set('customXmlConfig', xml);
      return ok({ success: true, xml });
    }
    case '/i18n/v1/custom-xml-config/validate': {
      const xml = str(arg(ctx, 'xml')) ?? str(arg(ctx, 'config')) ?? store.get('customXmlConfig');
      const valid = isWellFormedXml(xml);
      return ok({ valid, errors: valid ? [] : [{ message: 'The configuration is not well-formed XML.' }] });
    }
    case '/i18n/st/v1/strings/settings': {
      if (op.method === 'GET') return ok(store.get('translationSettings'));
      const next = json(store.get('translationSettings')) as TranslationSettings;
      for (const k of Object.keys(next) as (keyof TranslationSettings)[]) {
        const v = int(ctx.params[k]);
        if (v !== undefined) next[k] = v;
      }
      try {
        return ok(store.set('translationSettings', next));
      } catch (e) {
        return storeRefusal(e);
      }
    }
    case '/i18n/st/v1/strings/itemscount':
      return ok({ count: strings(ctx).length });
    case '/i18n/st/v1/strings':
      return ok(page(strings(ctx), ctx.params));
    case '/i18n/st/v1/strings/filters': {
      const all = store.table('translationStrings').values();
      return ok({
        kinds: Object.entries(STRING_KINDS).map(([name, value]) => ({ value, name })),
        sources: Object.entries(STRING_SOURCES).map(([name, value]) => ({ value, name })),
        domains: [...new Set(all.map((s) => s.domain))].sort(),
        types: ['LINE', 'AREA', 'VISUAL'],
        translationPriorities: ['optional', 'low', 'medium', 'high'],
        languages: [{ code: 'en', name: 'English' }, { code: 'uk', name: 'Українська' }],
      });
    }
    case '/i18n/st/v1/string-packages':
      return ok(page(packages(ctx), ctx.params));
    case '/i18n/st/v1/strings/processstringsqueue':
      return ok({ processed: 0, remaining: 0 });
    case '/i18n/tm/v1/ate/jobs/store': {
      const ateId = str(ctx.params.i18n_job_id) ?? '';
      const data = Array.isArray(ctx.params.ate_job_data) ? json(ctx.params.ate_job_data) : [];
      const jobs = store.table('translationJobs');
      const target = jobs.find((j) => j.i18n_job_id === ateId) ?? jobs.find((j) => j.i18n_job_id === undefined && j.status !== 'complete');
      if (!target) return err('i18n_job_not_found', 'No translation job is waiting for editor data.', 404);
      try {
        const saved = store.put('translationJobs', { ...(json(target) as TranslationJob), i18n_job_id: ateId, ate_job_data: data, status: 'in_progress' });
        return ok({ success: true, job: saved });
      } catch (e) {
        return storeRefusal(e);
      }
    }
    case '/i18n/tm/v1/xliff/fetch/{jobId}': {
      const job = store.table('translationJobs').get(Number(ctx.pathParams.jobId));
      if (!job) return err('i18n_job_not_found', 'The translation job does not exist.', 404);
      const xliff =
        `<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2"><file original="${job.elementType}-${job.elementId}" source-language="${job.sourceLanguageCode}" target-language="${job.targetLanguageCode}" datatype="plaintext"><body/></file></xliff>\n`;
      return ok({ jobId: job.id, status: job.status, xliff });
    }
    case '/i18n/tm/v1/ams/register_manager': {
      store.set('ams', { ...json(store.get('ams')), managerRegistered: true });
      return ok({ success: true, registered: true });
    }
    case '/i18n/tm/v1/ams/synchronize/translators':
      return ok(store.get('ams').translators);
    case '/i18n/tm/v1/ams/synchronize/managers':
      return ok(store.get('ams').managers);
    case '/i18n/tm/v1/ams/status': {
      const ams = store.get('ams');
      return ok({ registered: ams.managerRegistered, translators: ams.translators.length, managers: ams.managers.length });
    }
    default:
      return err('rest_no_route', 'No route was found matching the URL and request method.', 404);
  }
}
