// The Jieqi shuffle commitment: shown from the start; at the end the published assignment and salt
// are hashed here (WebCrypto) and compared, so nobody has to trust the server's word.
import { useEffect, useState } from 'preact/hooks';
import { assignmentDisagreement, verifyCommitment } from '../game/commitment';
import type { GameModel } from '../game/model';
import { t } from '../i18n';

export function Commitment({ game }: { game: GameModel }) {
  const commitment = game.state?.commitment ?? '';
  const assignment = game.result?.assignment ?? '';
  const salt = game.result?.salt ?? '';
  const [verdict, setVerdict] = useState<'' | 'ok' | 'bad' | 'game'>('');
  const [disagreement, setDisagreement] = useState('');
  // The hash proves the assignment was fixed at the start; the game's reveals and named captures,
  // checked against it, prove the game was played with it.
  const check = async () => {
    if (!(await verifyCommitment(commitment, assignment, salt))) return setVerdict('bad');
    const why = assignmentDisagreement(game.state?.startFen ?? '', game.moves, assignment);
    setDisagreement(why);
    setVerdict(why ? 'game' : 'ok');
  };
  useEffect(() => {
    setVerdict('');
    if (commitment && assignment && salt) void check();
  }, [commitment, assignment, salt]);
  return (
    <div class="panel commitment" data-testid="commitment">
      <h3>{t('commitment')}</h3>
      <code class="hash" data-testid="commitment-hash">{commitment}</code>
      {assignment && salt ? (
        <>
          <div class="kv"><span>{t('assignment')}</span><code data-testid="assignment">{assignment}</code></div>
          <div class="kv"><span>{t('salt')}</span><code>{salt}</code></div>
          <button onClick={() => void check()}>{t('verify')}</button>
          {verdict && (
            <p class={verdict === 'ok' ? 'ok' : 'error'} data-testid="commit-verdict" data-verdict={verdict}>
              {verdict === 'ok' ? t('verified') : verdict === 'bad' ? t('notVerified') : t('notVerifiedGame', { why: disagreement })}
            </p>
          )}
        </>
      ) : (
        <p class="muted">{t('commitmentPending')}</p>
      )}
    </div>
  );
}
