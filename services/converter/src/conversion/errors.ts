/**
 * A conversion that cannot succeed for this file (damaged, too big, a bomb, too slow): the
 * message is shown to the person as "Upload failed: <message>", so it says what is wrong in
 * plain words and never leaks paths or tool output.
 */
export class ConversionError extends Error {
  constructor(
    message: string,
    /** what went wrong, for logs only (tool stderr, library error) */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'ConversionError';
  }
}

export const MESSAGES = {
  damaged: 'The file is damaged or is not a valid document',
  /** not final: the office or a tool broke, the job is tried again (issue 25 §3) */
  retrying: 'We could not convert this file right now, retrying',
  imageTooCostly: 'The image is too costly to draw (its effects are too large)',
  damagedImage: 'The image is damaged or is not a valid image',
  tooSlow: 'The document took too long to convert',
  pagesTooLarge: 'The document has too many large pages to draw',
  tooManyPages: (max: number) => `The document has more than ${max} pages`,
  noPages: 'The document has no pages',
  zipTooBig: 'The document is too large once unpacked',
  zipTooManyEntries: 'The document contains too many parts',
  encrypted: 'The file is protected by a password',
  imageTooLarge: (megapixels: number) => `The image is too large (more than ${megapixels} megapixels)`,
  unsupported: 'This kind of file cannot be converted',
  heic: 'HEIC photos cannot be converted yet: please save it as JPEG and upload it again',
} as const;
