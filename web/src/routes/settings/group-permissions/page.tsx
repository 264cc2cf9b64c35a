import { useGroups, usePermissionCatalogue } from '@web/api/groups';
import { FormMessage, messageOf } from '@web/shell/form';
import { Spinner } from '@web/shell/spinner';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GroupEditor } from './group-editor';
import '@web/routes/management.css';

/** Settings → group permissions: the account's user groups beside the editor of the chosen one. */
export default function GroupPermissionsPage() {
  const { t } = useTranslation(['settings', 'permissions']);
  const groups = useGroups();
  const catalogue = usePermissionCatalogue();
  const [chosen, setChosen] = useState<string | 'new' | null>(null);

  const list = groups.data ?? [];
  const current = chosen === 'new' ? null : (list.find((group) => group.id === chosen) ?? null);
  const showEditor = chosen === 'new' || current !== null;

  return (
    <div className="page management-page">
      <div className="page-header">
        <div>
          <h1 className="page-title">{t('groups.title')}</h1>
          <p className="muted">{t('groups.intro')}</p>
        </div>
        <button type="button" className="button button-primary" onClick={() => setChosen('new')}>
          {t('groups.add')}
        </button>
      </div>
      {(groups.error || catalogue.error) && (
        <FormMessage kind="error">{messageOf(groups.error ?? catalogue.error)}</FormMessage>
      )}
      <div className="split">
        <nav className="card split-list" aria-label={t('groups.list_label')}>
          <h2>{t('groups.list_title')}</h2>
          {groups.isPending ? (
            <Spinner label={t('loading')} />
          ) : list.length === 0 ? (
            <p className="muted">{t('groups.empty')}</p>
          ) : (
            <ul className="pick-list">
              {list.map((group) => (
                <li key={group.id}>
                  <button
                    type="button"
                    className={`pick-item ${group.id === chosen ? 'pick-item-active' : ''}`}
                    aria-current={group.id === chosen ? 'true' : undefined}
                    onClick={() => setChosen(group.id)}
                  >
                    <span className="pick-name">{group.name}</span>
                    <span className="muted pick-meta">
                      {t('groups.summary', { count: group.member_count, keys: group.permissions.length })}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </nav>
        <div className="split-main">
          {showEditor && catalogue.data ? (
            <GroupEditor
              key={current?.id ?? 'new'}
              group={current}
              catalogue={catalogue.data}
              onSaved={(group) => setChosen(group.id)}
              onDeleted={() => setChosen(null)}
            />
          ) : showEditor || (chosen !== null && groups.isFetching) ? (
            <Spinner label={t('loading')} />
          ) : (
            <div className="card empty-state">
              <p className="muted">{t('groups.choose')}</p>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
