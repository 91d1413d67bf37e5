/** The files feature's public surface (the board drawer imports the upload client from here). */
export {
  uploadDisplayImage,
  uploadFile,
  uploadName,
  UploadError,
  type UploadOptions,
  type UploadPhase,
  type UploadProgress,
} from './upload/uploadFile';
