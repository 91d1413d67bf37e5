/** User settings with the defaults of spec §3 and a validation rule for every field. */
import { z } from 'zod';

export const LOCALES = ['en', 'de', 'fr', 'it', 'tr', 'uk', 'es', 'pl', 'et', 'ru'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export const ROLES = ['teacher', 'student', 'other'] as const;
export type Role = (typeof ROLES)[number];

export const BOARD_BACKGROUNDS = [
  'empty',
  'adaptiveGrid',
  'graphGrid',
  'dotGrid',
  'squares',
  'lines',
  'oldPaper',
  'blackboard',
  'plainColor',
] as const;
export const BOARD_PERMISSIONS = ['edit', 'view', 'none'] as const;
export const LINE_PATTERNS = ['pen', 'dashed', 'dotted', 'marker', 'highlighter'] as const;
export const FORMULA_ALIGNMENTS = ['equation', 'left', 'center', 'right'] as const;
export const FILE_DRAWER_DOCKS = ['bottom', 'right'] as const;

const flag = z.union([z.literal(0), z.literal(1)]);
const rgb = z.tuple([
  z.number().int().min(0).max(255),
  z.number().int().min(0).max(255),
  z.number().int().min(0).max(255),
]);
const penPreset = z.object({
  color: rgb,
  width: z.number().min(1).max(100),
  pattern: z.enum(LINE_PATTERNS),
});
const stylePreset = z.object({
  name: z.string().min(1).max(60),
  strokeColor: rgb.optional(),
  fillColor: rgb.nullable().optional(),
  strokeWidth: z.number().min(1).max(100).optional(),
  linePattern: z.enum(LINE_PATTERNS).optional(),
  textSize: z.number().int().min(6).max(200).optional(),
  textFont: z.string().min(1).max(60).optional(),
});

export const settingsSchema = z.object({
  locale: z.enum(LOCALES).nullable(),
  fileDrawerDock: z.enum(FILE_DRAWER_DOCKS),
  role: z.enum(ROLES).optional(),
  newBoardPermissions: z.enum(BOARD_PERMISSIONS),
  newBoardBackground: z.enum(BOARD_BACKGROUNDS),
  newBoardDeleteOwnOnly: flag,
  boardMinimap: flag,
  boardSnapping: flag,
  boardInertialPanning: flag,
  boardCollapsibleToolbar: flag,
  showParticipantNames: flag,
  largeVideo: flag,
  toolStrokeColor: rgb,
  toolStrokeWidth: z.number().min(1).max(100),
  toolLinePattern: z.enum(LINE_PATTERNS),
  toolTextColor: rgb,
  toolTextSize: z.number().int().min(6).max(200),
  toolTextFont: z.string().min(1).max(60),
  toolFormulaColor: rgb,
  toolFormulaSize: z.number().int().min(6).max(200),
  toolFormulaAlignment: z.enum(FORMULA_ALIGNMENTS),
  /** Length is also capped by the plan's maxPresets (checked by the auth service). */
  penPresets: z.array(penPreset).max(9),
  stylePresets: z.array(stylePreset).max(9),
  roleOnboarding: z.boolean(),
  emailProductUpdates: flag,
});
export type Settings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  locale: null,
  fileDrawerDock: 'bottom',
  role: undefined,
  newBoardPermissions: 'edit',
  newBoardBackground: 'empty',
  newBoardDeleteOwnOnly: 0,
  boardMinimap: 0,
  boardSnapping: 0,
  boardInertialPanning: 1,
  boardCollapsibleToolbar: 1,
  showParticipantNames: 1,
  largeVideo: 0,
  toolStrokeColor: [0, 0, 0],
  toolStrokeWidth: 3,
  toolLinePattern: 'pen',
  toolTextColor: [0, 0, 0],
  toolTextSize: 16,
  toolTextFont: 'Open Sans',
  toolFormulaColor: [0, 0, 0],
  toolFormulaSize: 20,
  toolFormulaAlignment: 'equation',
  penPresets: [],
  stylePresets: [],
  roleOnboarding: false,
  emailProductUpdates: 1,
};

/** POST /api/user/settings: only the changed fields; unknown keys are refused. */
export const settingsPatchSchema = settingsSchema.partial().strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;
