// A page's name and where the focus goes when the page changes (review of 2026-12-05): the tab's
// title never changed, and after a route change, a sign-in or a button that went away the focus
// fell to the page's body, so that a keyboard user started again from the top of the page and a
// screen reader said nothing of the new page.
import { t } from '../i18n';

// "Lobby · Xiangqi · Jieqi": the page first, as a tab strip cuts titles from the end.
export const pageTitle = (name: string) => `${name} · ${t('appTitle')}`;

// The focus went nowhere: to the body (its element was removed) or to <main> (the page it was
// moved to had no heading yet, still loading).
export function focusLost(): boolean {
  const el = document.activeElement;
  return !el || el === document.body || el.tagName === 'MAIN';
}

// To the page's heading (its h1), or to <main> while the page has none yet.
export function focusPageHeading() {
  const main = document.querySelector<HTMLElement>('main');
  (main?.querySelector<HTMLElement>('h1') ?? main)?.focus();
}

// Focus on `selector` once the page is drawn again (a button that replaces the one pressed is
// not there yet when its click is handled).
export function focusSoon(selector: string) {
  window.setTimeout(() => document.querySelector<HTMLElement>(selector)?.focus(), 0);
}
