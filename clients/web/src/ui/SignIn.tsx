// Sign in as a guest (one tap) or with an account (log in / register).
import { useState } from 'preact/hooks';
import type { App } from '../app';
import { errorText, t } from '../i18n';
import { RequestError } from '../net/connection';
import { ErrorCode } from '../net/proto';
import { errorProps } from './form_validity';

// As the server checks user names (gameserver/auth/auth.cpp, valid_user_name).
// ASCII letters, digits, _ and -, and Chinese characters: 3 to 20 characters, or 2 to 20 with a
// Chinese one.
const CHINESE = /[\u3400-\u4DBF\u4E00-\u9FFF]/;
export const isValidName = (name: string) => {
  const chars = [...name];
  if (chars.length > 20 || !chars.every((c) => /^[A-Za-z0-9_-]$/.test(c) || CHINESE.test(c))) return false;
  return chars.length >= (chars.some((c) => CHINESE.test(c)) ? 2 : 3);
};

type Field = 'guest' | 'name' | 'password';
const ERROR_ID = 'sign-in-error';

export function SignIn({ app }: { app: App }) {
  const [guestName, setGuestName] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  // Kept as the error (or the text's key), worded at each render: a language switch re-words it.
  // `fields`: the fields it is about (marked invalid, described by it); none for a lost link.
  const [error, setErrorOnly] = useState<({ err: unknown } | { key: 'nameRules' | 'passwordRules' | 'guestNameReserved' }) & { fields: Field[] } | null>(null);
  const setError = (e: ({ err: unknown } | { key: 'nameRules' | 'passwordRules' | 'guestNameReserved' }) | null, ...fields: Field[]) =>
    setErrorOnly(e && { ...e, fields });
  const [busy, setBusy] = useState(false);

  const run = async (body: Parameters<App['conn']['request']>[0]) => {
    setBusy(true);
    setError(null);
    try {
      app.conn.signedIn(await app.conn.request(body, { waitForLink: true }));
      app.notify();
    } catch (e) {
      // A ban is said by the notice above (the connection marks it): not a second time here.
      if (e instanceof RequestError && e.code === ErrorCode.BANNED) return setError(null);
      const code = e instanceof RequestError ? e.code : undefined;
      // The fields the refusal is about: the guest name, the account's name (taken), or both of
      // the account's fields (the two do not match); a link lost or a limit hit is about neither.
      const fields: Field[] = body.loginGuest
        ? code === ErrorCode.NAME_TAKEN ? ['guest'] : []
        : code === ErrorCode.NAME_TAKEN ? ['name'] : code === ErrorCode.BAD_CREDENTIALS ? ['name', 'password'] : [];
      setError({ err: e }, ...fields);
    } finally {
      setBusy(false);
    }
  };

  // The server's rules, checked here first so that the message names what is wrong, in the
  // page's language (the server's own text is English).
  // A name typed with a space at an end (a phone's keyboard adds one after a word) is meant without.
  const account = name.trim();
  const register = () => {
    if (!isValidName(account)) return setError({ key: 'nameRules' }, 'name');
    if (/^guest/i.test(account)) return setError({ key: 'guestNameReserved' }, 'name');
    if (new TextEncoder().encode(password).length < 6 || !password.trim()) return setError({ key: 'passwordRules' }, 'password');
    void run({ register: { name: account, password } });
  };
  // A newcomer who pressed Enter (log in) before having an account is told how to make one.
  const unknownAccount = error && 'err' in error && error.err instanceof RequestError && error.err.code === ErrorCode.BAD_CREDENTIALS;
  const errorOf = (f: Field) => errorProps(ERROR_ID, !!error?.fields.includes(f));

  return (
    <section class="panel sign-in">
      <h2>{t('signIn')}</h2>
      {app.conn.sessionEnded && !app.conn.banned && (
        <p class="error" role="alert" data-testid="signed-out-notice">
          {t('sessionEnded')}
        </p>
      )}
      {app.conn.banned && (
        <p class="error" role="alert" data-testid="banned-notice">
          {t('error.BANNED')}
        </p>
      )}
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          const wanted = guestName.trim();
          // The server would silently give a random name instead of an invalid one: say why here.
          if (wanted && !isValidName(wanted)) return setError({ key: 'nameRules' }, 'guest');
          void run({ loginGuest: { name: wanted } });
        }}
      >
        <input data-testid="guest-name" {...errorOf('guest')} aria-label={t('guestName')} placeholder={t('guestName')} value={guestName} maxLength={20} onInput={(e) => setGuestName(e.currentTarget.value)} />
        <button class="primary" data-testid="guest-login" disabled={busy}>{t('playAsGuest')}</button>
      </form>
      <form
        class="account"
        onSubmit={(e) => {
          e.preventDefault();
          void run({ login: { name: account, password } });
        }}
      >
        <input data-testid="account-name" {...errorOf('name')} aria-label={t('userName')} placeholder={t('userName')} autocomplete="username" autocapitalize="none" autocorrect="off" spellcheck={false} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <input data-testid="account-password" type="password" {...errorOf('password')} aria-label={t('password')} placeholder={t('password')} autocomplete="current-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <div class="row">
          <button data-testid="login" disabled={busy || !account || !password}>{t('login')}</button>
          <button data-testid="register" type="button" disabled={busy || !account || !password} onClick={() => register()}>
            {t('register')}
          </button>
        </div>
      </form>
      {error && (
        <p class="error" role="alert" id={ERROR_ID} data-testid="sign-in-error">
          {'key' in error ? t(error.key) : errorText(error.err)}
          {unknownAccount && <span data-testid="register-hint"> {t('newHereRegister')}</span>}
        </p>
      )}
    </section>
  );
}
