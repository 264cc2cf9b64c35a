import { MASTER_CODE_IMAGE, uploadMasterCodeImage, useMasterCodeImageUrl } from '@web/api/master-codes';
import { messageOf, TextField } from '@web/shell/form';
import { type ChangeEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A master code's picture: a file uploaded to Kedai (checked there by its bytes) or the web address of one elsewhere
 * (the form's URL field). One at a time: uploading replaces the address, typing an address drops the upload. The
 * preview shows whichever is chosen.
 */

const maxMegabytes = MASTER_CODE_IMAGE.maxBytes / 1024 / 1024;

export function MasterCodeImageField({
  imageId,
  imageUrl,
  name,
  error,
  onUploaded,
  onRemove,
}: {
  imageId: string;
  /** The address typed in the URL field, shown when it is a web address and no upload is chosen. */
  imageUrl: string | null;
  name: string;
  error?: string | undefined;
  onUploaded(imageId: string): void;
  onRemove(): void;
}) {
  const { t } = useTranslation('inventory');
  const [uploading, setUploading] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  const uploaded = useMasterCodeImageUrl(imageId || null);
  const preview = imageId ? uploaded.data : imageUrl;

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target;
    const file = input.files?.[0];
    if (!file) return;
    setFailure(undefined);
    if (!(MASTER_CODE_IMAGE.types as readonly string[]).includes(file.type)) {
      setFailure(t('master_code.errors.image_type'));
    } else if (file.size > MASTER_CODE_IMAGE.maxBytes) {
      setFailure(t('master_code.errors.image_too_large', { name: file.name, max: maxMegabytes }));
    } else {
      setUploading(true);
      try {
        onUploaded((await uploadMasterCodeImage(file)).data.id);
      } catch (failed) {
        setFailure(messageOf(failed));
      } finally {
        setUploading(false);
      }
    }
    // The same file chosen again after a refusal is a new choice.
    input.value = '';
  }

  return (
    <div className="master-code-image-field">
      <TextField
        label={t('master_code.fields.image_upload')}
        type="file"
        accept={MASTER_CODE_IMAGE.types.join(',')}
        onChange={upload}
        disabled={uploading}
        error={failure ?? error}
        hint={
          uploading ? t('master_code.image_uploading') : t('master_code.hints.image', { max: maxMegabytes })
        }
      />
      {preview && (
        <img
          className="master-code-image"
          src={preview}
          alt={t('master_code.image_alt', { name })}
          loading="lazy"
        />
      )}
      {imageId && (
        <button type="button" className="button button-small" onClick={onRemove}>
          {t('master_code.image_remove')}
        </button>
      )}
    </div>
  );
}
