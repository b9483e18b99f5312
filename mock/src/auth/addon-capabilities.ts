// Which add-on operations the real plugins give administrators only. Every other add-on write needs what terms need
// (manage_categories: editors and administrators). The documents show no permission callbacks (001 §5: "the routes
// that require credentials: not shown"), so this follows the plugins these namespaces stand for: settings, modules,
// modes, tools, set-up wizards, imports, the page builder's connection, themes, plugins and logs, and the
// translation add-on's configuration are `manage_options` (or install/activate/update_plugins, switch_themes,
// which only administrators hold by default); post meta, redirections, schemas, keywords, scores and contact forms
// are the editors' too.
import type { Operation } from '../../../contracts/lib/types.ts';

/** `METHOD path` of each administrator-only operation, grouped by the setting or action it changes. */
const ADMIN_ONLY_PATHS: readonly string[] = [
  // SEO: modules, mode, settings, search page, tools, set-up wizard, CSV import (manage_options).
  '/seo/v1/saveModule', '/seo/v1/updateMode', '/seo/v1/updateSettings', '/seo/v1/searchPage', '/seo/v1/toolsAction',
  '/seo/v1/setupWizard/updateStepData', '/seo/v1/setupWizard/updateTrackingOptin', '/seo/v1/importCSV', '/seo/v1/cancelCsvImport',
  // Page builder: its settings, logs, the site's connection, themes and plugins (manage_options, switch_themes, *_plugins).
  '/pagebuilder-one/v1/settings', '/pagebuilder-one/v1/logs',
  '/pagebuilder-one/v1/connect/authorize', '/pagebuilder-one/v1/connect/disconnect', '/pagebuilder-one/v1/connect/switch-domain', '/pagebuilder-one/v1/connect/deactivate',
  '/pagebuilder-one/v1/themes', '/pagebuilder-one/v1/themes/{slug}/activate',
  '/pagebuilder-one/v1/plugins', '/pagebuilder-one/v1/plugins/{slug}/activate', '/pagebuilder-one/v1/plugins/{slug}/deactivate', '/pagebuilder-one/v1/plugins/{slug}/upgrade',
  '/pagebuilder-one/v1/plugins/{slug}/migration/run', '/pagebuilder-one/v1/plugins/{slug}/migration/rollback',
  // Translation: configuration, string settings and queue, the translation manager (manage_options).
  '/i18n/v1/custom-xml-config', '/i18n/v1/custom-xml-config/validate', '/i18n/st/v1/strings/settings', '/i18n/st/v1/strings/processstringsqueue', '/i18n/tm/v1/ams/register_manager',
  // Calendar: the onboarding wizard writes the calendar's settings (manage_options).
  '/cal/v2/onboarding/wizard',
];

const ADMIN_ONLY: ReadonlySet<string> = new Set(ADMIN_ONLY_PATHS);

/** Whether a write to this operation needs an administrator (manage_options); reads are not restricted here. */
export function needsAdministrator(op: Operation): boolean {
  return op.method !== 'GET' && ADMIN_ONLY.has(op.path);
}
