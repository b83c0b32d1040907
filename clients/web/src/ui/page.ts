// A page's name and where the focus goes when the page changes (review of 2026-12-05): the tab's
// title never changed, and after a route change, a sign-in or a button that went away the focus
// fell to the page's body, so that a keyboard user started again from the top of the page and a
// screen reader said nothing of the new page.
import { t } from '../i18n';

// "Lobby · Xiangqi · Jieqi": the page first, as a tab strip cuts titles from the end.
export const pageTitle = (name: string) => `${name} · ${t('appTitle')}`;

// The focus went nowhere: to the body, its element removed.
export function focusLost(): boolean {
  const el = document.activeElement;
  return !el || el === document.body;
}

// To the page's heading (its h1). A game page still loading has none yet: it takes the focus
// itself once loaded, if the focus is still lost then. (<main> is not made focusable to wait
// there: a mouse press anywhere on the page would then focus it.)
export function focusPageHeading() {
  document.querySelector<HTMLElement>('main h1')?.focus();
}

// Focus on `selector` once the page is drawn again (a button that replaces the one pressed is
// not there yet when its click is handled).
export function focusSoon(selector: string) {
  window.setTimeout(() => document.querySelector<HTMLElement>(selector)?.focus(), 0);
}
