import { type MasterCodeDetail, useMasterCode, useSetMasterCodeStatus } from '@web/api/master-codes';
import { useSession } from '@web/auth/session';
import { FormMessage, messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { Spinner } from '@web/shell/spinner';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ComboItemsDialog } from '../components/combo-items-dialog';
import { LocationsSection } from './locations-section';
import { MasterCodeForm } from './master-code-form';
import '@web/routes/management.css';
import '../inventory.css';

/**
 * Inventory → master code → new or edit (spec §3 "Master code"): the form, and for a saved one its status (activate,
 * deactivate), whether listings are bound to it, a combo's items or a standard one's rack locations.
 */

export const MASTER_CODE_LIST = '/inventory/master-code';

function StatusBadges({ masterCode }: { masterCode: MasterCodeDetail }) {
  const { t } = useTranslation('inventory');
  return (
    <span className="badges">
      <span className={`badge ${masterCode.status === 'active' ? 'badge-new' : 'badge-muted'}`}>
        {t(`status.${masterCode.status}`)}
      </span>
      <span className="badge">{t(`type.${masterCode.type}`)}</span>
      <span className={`badge ${masterCode.bound ? 'badge-warning' : 'badge-muted'}`}>
        {t(masterCode.bound ? 'bound.bound' : 'bound.unbound')}
      </span>
    </span>
  );
}

function ComboItemsSection({ combo }: { combo: MasterCodeDetail }) {
  const { t } = useTranslation('inventory');
  const { can } = useSession();
  const [editing, setEditing] = useState(false);
  return (
    <section className="card" aria-labelledby="combo-items-title">
      <div className="section-header">
        <h2 id="combo-items-title">{t('combo.items_title')}</h2>
        {can('inventory-combo-list') && (
          <button type="button" className="button" onClick={() => setEditing(true)}>
            {t('combo.edit_items')}
          </button>
        )}
      </div>
      {combo.items.length === 0 ? (
        <p className="muted">{t('combo.no_items')}</p>
      ) : (
        <table className="simple-table">
          <thead>
            <tr>
              <th scope="col">{t('combo.columns.code')}</th>
              <th scope="col">{t('combo.columns.name')}</th>
              <th scope="col">{t('combo.columns.quantity')}</th>
            </tr>
          </thead>
          <tbody>
            {combo.items.map((item) => (
              <tr key={item.component_id}>
                <td>{item.code}</td>
                <td>{item.name}</td>
                <td>{item.quantity}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted field-hint">{t('combo.no_stock_hint')}</p>
      {editing && (
        <ComboItemsDialog combo={combo} onClose={() => setEditing(false)} onSaved={() => setEditing(false)} />
      )}
    </section>
  );
}

function StatusButton({ masterCode }: { masterCode: MasterCodeDetail }) {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const setStatus = useSetMasterCodeStatus();
  const next = masterCode.status === 'active' ? 'inactive' : 'active';
  return (
    <button
      type="button"
      className={`button ${next === 'inactive' ? 'button-danger-outline' : ''}`}
      disabled={setStatus.isPending}
      onClick={() =>
        setStatus.mutate(
          { id: masterCode.id, status: next },
          {
            onSuccess: (answer) => notify({ kind: 'success', message: answer.msg }),
            onError: (error) => notify({ kind: 'error', message: messageOf(error) }),
          },
        )
      }
    >
      {next === 'active' ? t('master_code.activate') : t('master_code.deactivate')}
    </button>
  );
}

/** The editor of one master code, or of a new one; `combo` starts a new combo (the combo list's "add"). */
export function MasterCodeEditor({ combo = false }: { combo?: boolean }) {
  const { t } = useTranslation('inventory');
  const { id } = useParams();
  const navigate = useNavigate();
  const existing = useMasterCode(id ?? null);
  const backTo = combo ? '/inventory/combo-list' : MASTER_CODE_LIST;
  const detail = existing.data ?? null;

  const header = (
    <div className="page-header">
      <div>
        <p className="breadcrumb">
          <Link to={backTo}>{combo ? t('combo.back') : t('master_code.back')}</Link>
        </p>
        <h1 className="page-title">
          {id === undefined
            ? combo
              ? t('combo.new_title')
              : t('master_code.new_title')
            : t('master_code.edit_title', { code: detail?.code ?? '' })}
        </h1>
        {detail && <StatusBadges masterCode={detail} />}
      </div>
      {detail && <StatusButton masterCode={detail} />}
    </div>
  );

  if (id !== undefined && !detail) {
    return (
      <div className="page management-page inventory-page">
        {header}
        {existing.error ? (
          <FormMessage kind="error">{messageOf(existing.error)}</FormMessage>
        ) : (
          <Spinner label={t('loading')} />
        )}
      </div>
    );
  }

  return (
    <div className="page management-page inventory-page">
      {header}
      <MasterCodeForm
        key={detail ? `${detail.id}:${detail.updated_at}` : 'new'}
        detail={detail}
        newType={combo ? 'combo' : 'standard'}
        typeFixed={combo}
        cancelTo={backTo}
        onCreated={(created) =>
          navigate(combo ? backTo : `${MASTER_CODE_LIST}/${encodeURIComponent(created.id)}`, {
            replace: true,
          })
        }
        onSaved={() => undefined}
      />
      {detail?.type === 'combo' && <ComboItemsSection combo={detail} />}
      {detail?.type === 'standard' && <LocationsSection masterCode={detail} />}
    </div>
  );
}

export default function MasterCodeEditorPage() {
  return <MasterCodeEditor />;
}
