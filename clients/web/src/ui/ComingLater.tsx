// Placeholder route for the tournament pages and the admin dashboard: they wait for the
// matchmaker/tournament service and its admin API; no data is invented here.
import { t } from '../i18n';

export function ComingLater({ title }: { title: string }) {
  return (
    <section class="panel coming-later" data-testid="coming-later">
      <h2>{title}</h2>
      <p>{t('comingLater')}</p>
    </section>
  );
}
