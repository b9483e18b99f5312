// The one error type of fixture and state loading. Its message is meant to be read by a person
// fixing a file: every line names the file, where in it, and what was expected.

export type FixtureProblemKind = 'unreadable' | 'syntax' | 'schema' | 'integrity';

export interface FixtureIssue {
  /** The file as the caller named it (so `fixtures/calendar.json` when loading `fixtures`). */
  file: string;
  /** JSON pointer inside the file ('' for the whole document); absent for unreadable files and syntax errors. */
  pointer?: string;
  /** Syntax errors only. */
  line?: number;
  column?: number;
  message: string;
}

/** How many issues the message lists; the rest stay available on `issues`. */
export const MESSAGE_ISSUE_LIMIT = 10;

export function formatIssue(issue: FixtureIssue): string {
  if (issue.line !== undefined) return `${issue.file}: line ${issue.line}, column ${issue.column ?? 1}: ${issue.message}`;
  if (issue.pointer === undefined) return `${issue.file}: ${issue.message}`;
  return `${issue.file}: ${issue.pointer === '' ? '(document root)' : issue.pointer} ${issue.message}`;
}

export class FixtureError extends Error {
  override readonly name = 'FixtureError';
  readonly kind: FixtureProblemKind;
  readonly issues: readonly FixtureIssue[];

  constructor(kind: FixtureProblemKind, issues: readonly FixtureIssue[]) {
    const shown = issues.slice(0, MESSAGE_ISSUE_LIMIT).map(formatIssue);
    if (issues.length > MESSAGE_ISSUE_LIMIT) shown.push(`... and ${issues.length - MESSAGE_ISSUE_LIMIT} more problems`);
    super(shown.join('\n'));
    this.kind = kind;
    this.issues = issues;
  }

  /** The file of the first problem, for callers that report one file. */
  get file(): string {
    return this.issues[0]?.file ?? '';
  }
}
