// Add-on routes by namespace: each add-on's handler reads the operation's path.
import type { Operation } from '../../../../contracts/lib/types.ts';
import type { Handler } from '../context.ts';
import { calendarExtrasHandler } from './calendar-extras.ts';
import { formsHandler } from './forms.ts';
import { i18nHandler } from './i18n.ts';
import { lmsHandler } from './lms.ts';
import { oembedHandler } from './oembed.ts';
import { pagebuilderHandler } from './pagebuilder.ts';
import { seoHandler } from './seo.ts';
import { slidersHandler } from './sliders.ts';

export function addonHandler(op: Operation): Handler | undefined {
  const ns = op.namespace;
  if (ns === 'forms/v1') return formsHandler;
  if (ns === 'lms/v1') return lmsHandler;
  if (ns === 'sliderrevolution') return slidersHandler;
  if (ns === 'oembed/1.0') return oembedHandler;
  if (ns.startsWith('i18n/')) return i18nHandler;
  if (ns === 'pagebuilder-one/v1') return pagebuilderHandler;
  if (ns.startsWith('seo/')) return seoHandler;
  if (ns === 'cal/views/v2' || ns === 'cal/v2/onboarding' || ns === 'cal/importer/v1') return calendarExtrasHandler;
  return undefined;
}
