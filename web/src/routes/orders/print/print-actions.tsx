import {
  MAX_PRINT_ORDERS,
  openPrint,
  PRINT_DOCUMENTS,
  PRINT_KEYS,
  type PrintDocument,
  type PrintOrigin,
} from '@web/api/printing';
import { useSession } from '@web/auth/session';
import { useTranslation } from 'react-i18next';

/**
 * Print buttons for a selection of orders, for the order lists to place in their toolbars: one button per document
 * (AWB, invoice, packing list, check list, delivery order), each opening the PDF of the selected orders in a new
 * tab (/orders/print), recorded as printed from `origin` (the list: unscan, smart scan, shipped, processed).
 * Hidden from users without an order key; disabled without a selection or beyond the 200 orders one print takes.
 */
export function PrintActions({
  orderIds,
  origin,
  documents = PRINT_DOCUMENTS,
}: {
  orderIds: readonly string[];
  origin: PrintOrigin;
  documents?: readonly PrintDocument[];
}) {
  const { t } = useTranslation('printing');
  const { can } = useSession();
  if (!PRINT_KEYS.some(can)) return null;
  const count = orderIds.length;
  const disabled = count === 0 || count > MAX_PRINT_ORDERS;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of buttons, not a form's fieldset
    <div className="print-actions" role="group" aria-label={t('actions.group', { count })}>
      {documents.map((document) => (
        <button
          key={document}
          type="button"
          className="button button-small"
          disabled={disabled}
          title={count > MAX_PRINT_ORDERS ? t('actions.too_many', { max: MAX_PRINT_ORDERS }) : undefined}
          onClick={() => openPrint(document, orderIds, origin)}
        >
          {t(`documents.${document}`)}
        </button>
      ))}
    </div>
  );
}
