/** The forms' labelled field is the kit's TextField (this name is kept for its callers). */
export { TextField as Field } from './kit/TextField';
