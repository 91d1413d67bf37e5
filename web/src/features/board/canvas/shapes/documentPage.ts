/**
 * A document page (`documentPage`): one page of an uploaded PDF or office document (fileId,
 * page), rendered by the converter as a picture and drawn like an image (./image.ts). The PDF
 * export can make one paper page per document page (export/pages.ts documentPages).
 */
import type { DocumentPageShape } from '@wb/proto';
import { documentPageUrl } from '../imageCache';
import { paintPicture, pictureDotColor, picturePrims } from './image';
import { storedBoxGeometry } from './shared/geometry';
import { resizeStoredBox } from './shared/resize';
import type { ShapeUtil } from './types';

export const documentPageUtil: ShapeUtil<DocumentPageShape> = {
  kind: 'documentPage',
  geometry: storedBoxGeometry,
  paint(g, item, ctx) {
    const shape = item.shape as DocumentPageShape;
    paintPicture(g, item, ctx, documentPageUrl(shape.fileId, shape.page));
  },
  dotColor: pictureDotColor,
  vector: picturePrims,
  assetUrl: (shape) => documentPageUrl(shape.fileId, shape.page),
  resize: resizeStoredBox,
  style: { stroke: false, fill: false },
};
