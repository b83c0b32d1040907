// The rule-option fields of the seek form and the event form (docs/adjudication.md "Options for
// clubs"): one set of controls, each form keeping the values in its own state.
import { t } from '../i18n';
import { COUNTED_CHECKS_CHOICES, REPETITION_CHOICES, type RuleOptionsInput } from '../game/rule_options';

export function RuleOptionsFields({
  value,
  onChange,
  jieqi,
  testid,
}: {
  value: RuleOptionsInput;
  onChange: (v: RuleOptionsInput) => void;
  jieqi: boolean;
  testid: string; // prefix of the controls' data-testid ("seek", "ev")
}) {
  const set = <K extends keyof RuleOptionsInput>(k: K, v: RuleOptionsInput[K]) => onChange({ ...value, [k]: v });
  return (
    <>
      <label>
        {t('repetitions')}
        <select data-testid={`${testid}-repetitions`} value={value.repetitions} onChange={(e) => set('repetitions', Number(e.currentTarget.value))}>
          {REPETITION_CHOICES.map((n) => (
            <option value={n}>{n}</option>
          ))}
        </select>
      </label>
      <MovesField label={t('moveLimit')} testid={`${testid}-move-limit`} value={value.moveLimitMoves} onChange={(n) => set('moveLimitMoves', n)} />
      <label>
        {t('countedChecks')}
        <select data-testid={`${testid}-counted-checks`} value={value.countedChecks} onChange={(e) => set('countedChecks', e.currentTarget.value)}>
          {COUNTED_CHECKS_CHOICES.map(([v, key]) => (
            <option value={v}>{t(key)}</option>
          ))}
        </select>
      </label>
      <MovesField label={t('requestedLimit')} testid={`${testid}-requested-limit`} value={value.requestedLimitMoves} onChange={(n) => set('requestedLimitMoves', n)} />
      {value.requestedLimitMoves > 0 && (
        <label>
          {t('requestedLimitForcingCap')}
          <input
            data-testid={`${testid}-requested-limit-forcing-cap`}
            type="number"
            min="0"
            max={value.requestedLimitMoves * 2}
            value={value.requestedLimitForcingCap}
            onInput={(e) => set('requestedLimitForcingCap', Number(e.currentTarget.value))}
          />
        </label>
      )}
      {jieqi && (
        <label class="check">
          <input data-testid={`${testid}-pae-free`} type="checkbox" checked={value.paeFree} onChange={(e) => set('paeFree', e.currentTarget.checked)} />
          {t('paeFree')}
        </label>
      )}
    </>
  );
}

// A number of moves per side (0 = the option's "none"/"usual"); the server takes 10..300 as plies 20..600.
function MovesField({ label, testid, value, onChange }: { label: string; testid: string; value: number; onChange: (n: number) => void }) {
  return (
    <label>
      {label}
      <input data-testid={testid} type="number" min="0" max="300" value={value} onInput={(e) => onChange(Number(e.currentTarget.value))} />
    </label>
  );
}
