// The browser's own form checks (required, min/max, minlength, step …) speak the browser's language,
// not the page's: a Chinese page would show an English bubble. Every form field's check is worded
// here instead, from what the field's validity says, in the page's language. One listener for the
// whole document: `invalid` does not bubble, so it is caught on the way down.
import { t } from '../i18n';

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export function validityText(f: Pick<HTMLInputElement, 'validity' | 'min' | 'max' | 'minLength' | 'maxLength' | 'step'>): string {
  const v = f.validity;
  if (v.valueMissing) return t('fieldRequired');
  if (v.badInput) return t('fieldNumber');
  if (v.rangeUnderflow) return t('fieldAtLeast', { n: f.min });
  if (v.rangeOverflow) return t('fieldAtMost', { n: f.max });
  if (v.tooShort) return t('fieldTooShort', { n: String(f.minLength) });
  if (v.tooLong) return t('fieldTooLong', { n: String(f.maxLength) });
  if (v.stepMismatch) return t('fieldStep', { n: f.step });
  if (v.typeMismatch || v.patternMismatch) return t('fieldFormat');
  return '';
}

export function localizeFormChecks(doc: Document = document): void {
  doc.addEventListener(
    'invalid',
    (e) => {
      const f = e.target as Field;
      if (!('setCustomValidity' in f)) return;
      f.setCustomValidity('');  // read the field's own state, not the last message set here
      if (f.validity.valid) return;
      f.setCustomValidity(validityText(f as HTMLInputElement));
    },
    true,
  );
  // A message set here would keep the field invalid for good: cleared as soon as it changes.
  const clear = (e: Event) => {
    const f = e.target as Field;
    if ('setCustomValidity' in f) f.setCustomValidity('');
  };
  doc.addEventListener('input', clear, true);
  doc.addEventListener('change', clear, true);
}

// A field's own error message tied to the field (WCAG 3.3.1, review of 2026-12-05): while the
// error stands the field is marked invalid and the message is among what describes it, so that a
// screen reader coming back to the field reads why it was refused. `describedBy`: the field's
// other descriptions (a help text), kept.
export function errorProps(errorId: string, invalid: boolean, describedBy?: string) {
  const ids = [describedBy, invalid ? errorId : ''].filter(Boolean).join(' ');
  return { 'aria-invalid': invalid ? ('true' as const) : undefined, 'aria-describedby': ids || undefined };
}
