import { REPORT_GROUPS, REPORTS } from '@domain/reports/catalogue';
import { PageHeader } from '@web/shell/page';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import './reports.css';

/** The reports' index: each group (sales, orders, fulfilment, stock) with its reports, named and described. */
export default function ReportsIndexPage() {
  const { t } = useTranslation('reports');
  return (
    <div className="page reports-index">
      <PageHeader title={t('index_title')} intro={t('index_intro')} />
      {REPORT_GROUPS.map((group) => (
        <section key={group} className="card reports-group" aria-labelledby={`reports-group-${group}`}>
          <h2 id={`reports-group-${group}`}>{t(`groups.${group}`)}</h2>
          <ul className="reports-list">
            {REPORTS.filter((report) => report.group === group).map((report) => (
              <li key={report.id}>
                <Link to={`/reports/${report.id}`}>{t(`titles.${report.id}`)}</Link>
                <p className="muted">{t(`intros.${report.id}`)}</p>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
