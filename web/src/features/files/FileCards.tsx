/** The document card and the upload card of spec §2. */
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertCircle, Check, FileText, Image as ImageIcon, X } from 'lucide-react';
import type { DocumentDto } from '@wb/proto';
import { LocalLink } from '../../app/prefix';
import { ICON_PROPS } from '../../ui/icons';
import { Tooltip } from '../../ui/Tooltip';
import { NAME_TOOLTIP_LENGTH, formatBytes, thumbnailUrl } from './filesLogic';
import type { UploadEntry } from './useUploads';
import { IconButton } from '../../ui/kit/Button';

/** The language's byte unit symbols (files.byteUnits: "B KB MB …"). */
export function useFormatBytes(): (bytes: number) => string {
  const { t, i18n } = useTranslation();
  const units = t('files.byteUnits').split(' ');
  return (bytes) => formatBytes(bytes, i18n.language, units.length === 9 ? units : undefined);
}

function Thumbnail({ doc }: { doc: DocumentDto }) {
  const { t } = useTranslation();
  const [broken, setBroken] = useState(false);
  const Fallback = doc.isImage ? ImageIcon : FileText;
  if (doc.status === 'processing')
    return (
      <span className="doc-thumb-state">
        <span className="spinner" aria-hidden="true" />
        {doc.error
          ? t('files.upload.retrying')
          : doc.pages > 0
            ? t('files.upload.pagesDone', { done: doc.pagesDone, count: doc.pages })
            : t('files.upload.processing')}
      </span>
    );
  if (doc.status === 'failed' || broken)
    return (
      <span className="doc-thumb-state">
        <Fallback {...ICON_PROPS} size={32} />
        {doc.status === 'failed' ? t('files.card.failed') : null}
      </span>
    );
  return (
    <img
      className="doc-thumb"
      src={thumbnailUrl(doc)}
      alt=""
      loading="lazy"
      decoding="async"
      onError={() => setBroken(true)}
    />
  );
}

export const DocumentCard = memo(function DocumentCard({
  doc,
  selected,
  size,
  onToggle,
}: {
  doc: DocumentDto;
  selected: boolean;
  size: string;
  onToggle: (id: string) => void;
}) {
  const { t } = useTranslation();
  const long = doc.name.length > NAME_TOOLTIP_LENGTH;
  const name = <span className="doc-name">{doc.name}</span>;
  const link = (
    <LocalLink to={`/files/${doc.id}`} className="doc-open">
      <span className="doc-thumb-box">
        <Thumbnail doc={doc} />
      </span>
      {name}
    </LocalLink>
  );
  return (
    <li className={`doc-card${selected ? ' selected' : ''}`} data-doc-id={doc.id} data-status={doc.status}>
      <label className="doc-select">
        <input
          type="checkbox"
          checked={selected}
          onChange={() => onToggle(doc.id)}
          aria-label={t('files.card.select', { name: doc.name })}
        />
      </label>
      {long ? <Tooltip text={doc.name}>{link}</Tooltip> : link}
      <span className="doc-meta">
        {doc.isImage
          ? t('files.card.image')
          : doc.pages === 1
            ? t('files.card.onePage')
            : t('files.card.pages', { count: doc.pages })}
        <span aria-hidden="true"> · </span>
        {size}
      </span>
    </li>
  );
});

export function UploadCard({ entry, onCancel }: { entry: UploadEntry; onCancel: (key: string) => void }) {
  const { t } = useTranslation();
  const pct = Math.round(entry.progress * 100);
  let status: string;
  switch (entry.status) {
    case 'queued':
      status = t('files.upload.queued');
      break;
    case 'hashing':
      status = t('files.upload.hashing', { percent: pct });
      break;
    case 'uploading':
      status = t('files.upload.uploading', { percent: pct });
      break;
    case 'processing':
      status = entry.retrying
        ? t('files.upload.retrying')
        : entry.pages
          ? t('files.upload.pagesDone', { done: entry.pagesDone ?? 0, count: entry.pages })
          : t('files.upload.processing');
      break;
    case 'done':
      status = t('files.upload.done');
      break;
    default:
      status = t('files.upload.failed', { message: entry.error ?? '' });
  }
  const failed = entry.status === 'failed';
  const busy = !failed && entry.status !== 'done';
  // the bar: sending bytes is most of the wait, then the pages
  const bar =
    entry.status === 'uploading' || entry.status === 'hashing'
      ? pct
      : entry.status === 'processing'
        ? entry.pages
          ? Math.round(((entry.pagesDone ?? 0) / entry.pages) * 100)
          : 100
        : 100;
  return (
    <li className={`upload-card status-${entry.status}`} data-upload-status={entry.status}>
      <span className="upload-icon">
        {failed ? (
          <AlertCircle {...ICON_PROPS} size={18} />
        ) : entry.status === 'done' ? (
          <Check {...ICON_PROPS} size={18} />
        ) : (
          <span className="spinner" aria-hidden="true" />
        )}
      </span>
      <span className="upload-body">
        <span className="upload-name" title={entry.name}>
          {entry.name}
        </span>
        <span className="upload-status" role={failed ? 'alert' : undefined}>
          {status}
        </span>
        {busy ? (
          <span
            className="upload-bar"
            role="progressbar"
            aria-label={entry.name}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={bar}
          >
            <span style={{ width: `${bar}%` }} />
          </span>
        ) : null}
      </span>
      {busy ? (
        <IconButton
          size="sm"
          onClick={() => onCancel(entry.key)}
          label={t('files.upload.cancel', { name: entry.name })}
          icon={<X {...ICON_PROPS} size={16} />}
        />
      ) : null}
    </li>
  );
}
