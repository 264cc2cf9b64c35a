import { MANAGE_KEY } from '@web/api/purchases';
import {
  REQUIRED_SUPPLIER_COLUMNS,
  SUPPLIER_COLUMNS,
  SUPPLIER_LIMITS,
  SUPPLIERS_ENDPOINT,
  type Supplier,
  type SupplierBody,
  useSaveSupplier,
} from '@web/api/suppliers';
import { useSession } from '@web/auth/session';
import type { DataGridHandle } from '@web/components/data-grid';
import { GridScreen } from '@web/components/grid-screen';
import { ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, fieldErrorsOf, messageOf, SelectField, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { createContext, type FormEvent, useContext, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileUploadForm } from './parts';

/**
 * Purchases → supplier: the account's purchasing suppliers (spec §3 Supplier: code, store name, company, contact
 * number, email, address, city, postal code, state, country, currency, VAT number, status), searchable; add or edit
 * one, deactivate it (its orders stay; it takes no new one) or activate it again; or upload many from a CSV or XLSX
 * in the fixed column order. A user holding only purchases-index sees the list.
 */

const RowActions = createContext<{ edit(row: Supplier): void; toggle(row: Supplier): void; manage: boolean }>(
  {
    edit: () => undefined,
    toggle: () => undefined,
    manage: false,
  },
);

function ActionsCell({ data }: ICellRendererParams<Supplier>) {
  const { t } = useTranslation('purchases');
  const actions = useContext(RowActions);
  if (!data || !actions.manage) return null;
  return (
    <span className="purchase-actions">
      <button
        type="button"
        className="button button-secondary"
        aria-label={t('suppliers.edit_named', { name: data.name })}
        onClick={() => actions.edit(data)}
      >
        {t('suppliers.edit')}
      </button>
      <button
        type="button"
        className="button button-secondary"
        aria-label={t(data.status === 'active' ? 'suppliers.deactivate_named' : 'suppliers.activate_named', {
          name: data.name,
        })}
        onClick={() => actions.toggle(data)}
      >
        {t(data.status === 'active' ? 'suppliers.deactivate' : 'suppliers.activate')}
      </button>
    </span>
  );
}

function useColumns(): ColDef<Supplier>[] {
  const { t } = useTranslation('purchases');
  return useMemo(
    () =>
      [
        {
          colId: 'code',
          field: 'code',
          headerName: t('suppliers.fields.code'),
          sortable: true,
          minWidth: 100,
        },
        {
          colId: 'name',
          field: 'name',
          headerName: t('suppliers.fields.name'),
          sortable: true,
          flex: 1,
          minWidth: 160,
        },
        {
          colId: 'company',
          field: 'company',
          headerName: t('suppliers.fields.company'),
          sortable: true,
          minWidth: 160,
        },
        {
          colId: 'contact_number',
          field: 'contact_number',
          headerName: t('suppliers.fields.contact_number'),
          sortable: true,
          minWidth: 140,
        },
        {
          colId: 'email',
          field: 'email',
          headerName: t('suppliers.fields.email'),
          sortable: true,
          minWidth: 160,
        },
        {
          colId: 'city',
          field: 'city',
          headerName: t('suppliers.fields.city'),
          sortable: true,
          minWidth: 110,
        },
        {
          colId: 'country',
          field: 'country',
          headerName: t('suppliers.fields.country'),
          sortable: true,
          minWidth: 110,
        },
        {
          colId: 'currency',
          field: 'currency',
          headerName: t('suppliers.fields.currency'),
          sortable: true,
          minWidth: 90,
        },
        {
          colId: 'status',
          headerName: t('suppliers.fields.status'),
          valueGetter: ({ data }) => (data ? t(`suppliers.status.${data.status}`) : ''),
          sortable: true,
          minWidth: 100,
        },
        {
          colId: 'actions',
          headerName: t('suppliers.actions'),
          cellRenderer: ActionsCell,
          minWidth: 210,
          pinned: 'right',
        },
      ] satisfies ColDef<Supplier>[],
    [t],
  );
}

const EMPTY: SupplierBody = {
  code: '',
  name: '',
  company: '',
  contact_number: '',
  email: '',
  address: '',
  city: '',
  postal_code: '',
  state: '',
  country: '',
  currency: '',
  vat_number: '',
  status: 'active',
};
/** The bulk file's required columns come first: the form requires the same. */
const REQUIRED = new Set<string>(SUPPLIER_COLUMNS.slice(0, REQUIRED_SUPPLIER_COLUMNS));
const FIELDS = [
  'code',
  'name',
  'company',
  'contact_number',
  'email',
  'address',
  'city',
  'postal_code',
  'state',
  'country',
  'currency',
  'vat_number',
] as const;

function SupplierForm({
  row,
  onClose,
  onSaved,
}: {
  row: Supplier | null;
  onClose(): void;
  onSaved(msg: string): void;
}) {
  const { t } = useTranslation('purchases');
  const id = useId();
  const save = useSaveSupplier();
  const [values, setValues] = useState<SupplierBody>(() => (row ? { ...EMPTY, ...row } : EMPTY));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    setError(null);
    setErrors({});
    const missing = Object.fromEntries(
      [...REQUIRED]
        .filter((name) => !values[name as keyof SupplierBody].trim())
        .map((name) => [name, t(`suppliers.required.${name}`)]),
    );
    if (Object.keys(missing).length > 0) return setErrors(missing);
    try {
      const { status: _status, ...fields } = values;
      const answer = await save.mutateAsync(row ? { id: row.id, body: fields } : { body: values });
      onSaved(answer.msg);
    } catch (failure) {
      setErrors(fieldErrorsOf(failure));
      setError(messageOf(failure));
    }
  }

  return (
    <ModalDialog
      title={t(row ? 'suppliers.edit_title' : 'suppliers.add_title')}
      onClose={onClose}
      closeLabel={t('actions.close')}
      size="large"
      footer={
        <>
          <button
            type="button"
            className="button button-secondary"
            onClick={onClose}
            disabled={save.isPending}
          >
            {t('actions.close')}
          </button>
          <button type="submit" form={id} className="button button-primary" disabled={save.isPending}>
            {t('suppliers.save')}
          </button>
        </>
      }
    >
      <form id={id} className="form" noValidate onSubmit={submit}>
        {error && <FormMessage kind="error">{error}</FormMessage>}
        <div className="purchase-grid">
          {FIELDS.map((name) => (
            <TextField
              key={name}
              label={t(`suppliers.fields.${name}`)}
              required={REQUIRED.has(name)}
              type={name === 'email' ? 'email' : 'text'}
              value={values[name]}
              error={errors[name]}
              limit={SUPPLIER_LIMITS[name]}
              onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
            />
          ))}
          {!row && (
            <SelectField
              label={t('suppliers.fields.status')}
              value={values.status}
              options={(['active', 'inactive'] as const).map((value) => ({
                value,
                label: t(`suppliers.status.${value}`),
              }))}
              onChange={(event) =>
                setValues((current) => ({ ...current, status: event.target.value as SupplierBody['status'] }))
              }
            />
          )}
        </div>
      </form>
    </ModalDialog>
  );
}

export default function SupplierPage() {
  const { t } = useTranslation('purchases');
  const { can } = useSession();
  const notify = useNotify();
  const grid = useRef<DataGridHandle>(null);
  const save = useSaveSupplier();
  const [editing, setEditing] = useState<Supplier | 'new' | null>(null);
  const [uploading, setUploading] = useState(false);
  const columns = useColumns();
  const manage = can(MANAGE_KEY);
  const actions = useMemo(
    () => ({
      manage,
      edit: (row: Supplier) => setEditing(row),
      toggle: async (row: Supplier) => {
        try {
          const answer = await save.mutateAsync({
            id: row.id,
            body: { status: row.status === 'active' ? 'inactive' : 'active' },
          });
          notify({ kind: 'success', message: answer.msg });
          grid.current?.refresh();
        } catch (error) {
          notify({ kind: 'error', message: messageOf(error) });
        }
      },
    }),
    [manage, save, notify],
  );
  return (
    <RowActions.Provider value={actions}>
      <GridScreen<Supplier>
        namespace="purchases"
        prefix="suppliers"
        gridId="purchases.suppliers"
        endpoint={SUPPLIERS_ENDPOINT}
        useColumns={() => columns}
        className="purchase-page"
        grid={grid}
        actions={
          manage && (
            <span className="purchase-actions">
              <button type="button" className="button button-secondary" onClick={() => setUploading(true)}>
                {t('suppliers.upload')}
              </button>
              <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
                {t('suppliers.add')}
              </button>
            </span>
          )
        }
      >
        {editing && (
          <SupplierForm
            row={editing === 'new' ? null : editing}
            onClose={() => setEditing(null)}
            onSaved={(msg) => {
              setEditing(null);
              notify({ kind: 'success', message: msg });
              grid.current?.refresh();
            }}
          />
        )}
        {uploading && (
          <ModalDialog
            title={t('suppliers.upload_title')}
            onClose={() => setUploading(false)}
            closeLabel={t('actions.close')}
          >
            <FileUploadForm<{ created: number; updated: number }>
              endpoint={`${SUPPLIERS_ENDPOINT}/upload`}
              columns={SUPPLIER_COLUMNS}
              templateName="suppliers-template.csv"
              intro={t('suppliers.upload_intro')}
              onDone={() => {
                setUploading(false);
                grid.current?.refresh();
              }}
            />
          </ModalDialog>
        )}
      </GridScreen>
    </RowActions.Provider>
  );
}
