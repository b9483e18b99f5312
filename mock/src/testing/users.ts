// The fixtures' users as tests sign in: the administrator, the editor and the subscriber with the application
// passwords fixtures/users.json gives them, and the author (who has none there) with one a test gives it.
import type { UserRecord } from '../../../contracts/model/records.ts';
import type { Mock } from '../index.ts';

export interface Login {
  username: string;
  password: string;
}

export const ADMIN: Login = { username: 'admin', password: 'ACk6 qp4z jfOW 6dsy HMWV G0x1' };
export const EDITOR: Login = { username: 'olena.kovalenko', password: 'wUMD HQOr sjrb fVae VcAH d7tB' };
export const SUBSCRIBER: Login = { username: 'reader', password: 'YFWv yawU 4TAj vpzF d20t 5Cus' };
/** The author's login once `givePassword(mock, AUTHOR)` has given it. */
export const AUTHOR: Login = { username: 'james.whitfield', password: 'AUTH orpw ord1 2345 6789 abcd' };

/** Makes `login.password` the user's one application password in this mock. */
export function givePassword(mock: Mock, login: Login): void {
  const u = mock.store.table('users').find((x) => x.username === login.username)! as UserRecord;
  mock.store.put('users', { ...u, application_passwords: [{ uuid: '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5', name: 'test', password: login.password, created: '2026-01-01 00:00:00' }] });
}
