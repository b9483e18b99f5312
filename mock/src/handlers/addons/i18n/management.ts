// Translation add-on (001 §4.3), `i18n/tm/v1`: translation management. Editor (ATE) job data is attached to a
// waiting job, a job's XLIFF is fetched, and the translation-manager service registration (AMS) is kept.
import type { TranslationJob } from '../../../../../contracts/model/records.ts';
import { ok, type HandlerCtx, type Reply } from '../../context.ts';
import { err, json, storeRefusal, str } from '../util.ts';

function storeAteJob(ctx: HandlerCtx): Reply {
  const { store } = ctx;
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

function fetchXliff(ctx: HandlerCtx): Reply {
  const job = ctx.store.table('translationJobs').get(Number(ctx.pathParams.jobId));
  if (!job) return err('i18n_job_not_found', 'The translation job does not exist.', 404);
  const xliff =
    `<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2"><file original="${job.elementType}-${job.elementId}" source-language="${job.sourceLanguageCode}" target-language="${job.targetLanguageCode}" datatype="plaintext"><body/></file></xliff>\n`;
  return ok({ jobId: job.id, status: job.status, xliff });
}

function registerManager(ctx: HandlerCtx): Reply {
  ctx.store.set('ams', { ...json(ctx.store.get('ams')), managerRegistered: true });
  return ok({ success: true, registered: true });
}

function amsStatus(ctx: HandlerCtx): Reply {
  const ams = ctx.store.get('ams');
  return ok({ registered: ams.managerRegistered, translators: ams.translators.length, managers: ams.managers.length });
}

/** The translation-management operations, each its own handler. */
export const managementHandlers = {
  storeAteJob,
  fetchXliff,
  registerManager,
  translators: (ctx: HandlerCtx): Reply => ok(ctx.store.get('ams').translators),
  managers: (ctx: HandlerCtx): Reply => ok(ctx.store.get('ams').managers),
  amsStatus,
} as const;
