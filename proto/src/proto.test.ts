import {
  AppError,
  DEFAULT_SETTINGS,
  ERROR_CATALOGUE,
  PLANS,
  FALLBACK_STARTER_PLAN,
  planSchema,
  settingsPatchSchema,
  settingsSchema,
  eventStreamName,
  serviceSubject,
  eventSubject,
} from './index';

describe('plans (spec §6, §9)', () => {
  it('has the price and limit table of spec §9', () => {
    const MB = 1024 ** 2;
    const GB = 1024 ** 3;
    expect(PLANS.starter).toMatchObject({
      price: { monthly: 0, yearly: 0 },
      limits: { maxBoards: 5, maxData: 50 * MB, maxPresets: 3, maxCollaborationMinutesPerWeek: 300 },
    });
    expect(PLANS.standard).toMatchObject({
      price: { monthly: 10, yearly: 9 },
      limits: { maxBoards: 50, maxData: GB, maxPresets: 9, maxCollaborationMinutesPerWeek: 3000 },
    });
    expect(PLANS.premium).toMatchObject({
      price: { monthly: 29, yearly: 25 },
      limits: { maxBoards: 1000, maxData: 5 * GB, maxPresets: 9, maxCollaborationMinutesPerWeek: 6000 },
    });
    expect(PLANS.ultimate).toMatchObject({
      price: { monthly: 179, yearly: 149 },
      limits: { maxBoards: 10000, maxData: 30 * GB, maxPresets: 9, maxCollaborationMinutesPerWeek: 6000 },
    });
  });

  it('has the feature sets of spec §6: starter none, premium adds othersUpload, ultimate adds prioritySupport', () => {
    const on = (name: keyof typeof PLANS) =>
      Object.entries(PLANS[name].features)
        .filter(([, v]) => v)
        .map(([k]) => k)
        .sort();
    expect(on('starter')).toEqual([]);
    expect(on('standard')).toEqual([
      'advancedGraphs',
      'assignments',
      'call',
      'collaborationControls',
      'courses',
      'fileUpload',
      'folders',
      'guests',
      'powerTools',
      'team',
      'tutorProfile',
    ]);
    expect(on('premium')).toEqual([...on('standard'), 'othersUpload'].sort());
    expect(on('ultimate')).toEqual([...on('premium'), 'prioritySupport'].sort());
  });

  it('every plan and the client fallback satisfy the plan schema', () => {
    for (const plan of [...Object.values(PLANS), FALLBACK_STARTER_PLAN]) expect(planSchema.parse(plan)).toEqual(plan);
    expect(FALLBACK_STARTER_PLAN.limits).toEqual({
      maxBoards: 0,
      maxData: 0,
      maxPresets: 3,
      maxCollaborationMinutesPerWeek: 0,
    });
  });
});

describe('settings (spec §3)', () => {
  it('defaults are valid and match the spec', () => {
    expect(settingsSchema.parse(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toMatchObject({
      locale: null,
      fileDrawerDock: 'bottom',
      newBoardPermissions: 'edit',
      toolStrokeWidth: 3,
      toolTextSize: 16,
      toolFormulaSize: 20,
      toolTextFont: 'Open Sans',
      emailProductUpdates: 1,
      roleOnboarding: false,
    });
  });

  it('a patch accepts known fields and refuses unknown keys and bad values', () => {
    expect(settingsPatchSchema.safeParse({ locale: 'de', boardMinimap: 1 }).success).toBe(true);
    expect(settingsPatchSchema.safeParse({ locale: 'xx' }).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ boardMinimap: 2 }).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ toolStrokeColor: [0, 0, 256] }).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ isAdmin: true }).success).toBe(false);
  });
});

describe('errors and subjects', () => {
  it('AppError carries the catalogue status and default message', () => {
    const err = new AppError('ERR_MAX_BOARDS_REACHED');
    expect(err.toBody()).toEqual({
      code: 'ERR_MAX_BOARDS_REACHED',
      statusCode: 403,
      message: ERROR_CATALOGUE.ERR_MAX_BOARDS_REACHED.message,
    });
    expect(AppError.isCode('ERR_LOGIN_FAILED')).toBe(true);
    expect(AppError.isCode('ERR_NOPE')).toBe(false);
  });

  it('every spec §8 code is in the catalogue', () => {
    const spec =
      'ERR_BRAINTREE ERR_INPUT ERR_INVALID_INPUT ERR_INVALID_VAT ERR_SEAT_COUNT_TOO_LOW ERR_UNKNOWN_PROMO_CODE ERR_BOARD_NOT_FOUND ERR_BUSINESS_NOT_FOUND ERR_NOT_IN_BUSINESS ERR_NO_AVAILABLE_SEATS ERR_USER_IN_BUSINESS ERR_INVITATION_MISSING ERR_COURSE_INVITATION_MISSING ERR_MAX_BOARDS_REACHED ERR_FEATURE_NOT_ENABLED ERR_NAME_TOO_SHORT ERR_EMAIL_TAKEN ERR_ADDRESS_REGISTERED ERR_USER_IN_YOUR_BUSINESS ERR_USER_ALREADY_INVITED ERR_NO_EMAIL_MATCH ERR_CANT_INVITE_YOURSELF ERR_USER_IN_COURSE ERR_COURSE_USER_ALREADY_INVITED ERR_LOGIN_FAILED ERR_INVALID_DOMAIN ERR_TEMPORARY_PROBLEM ERR_THROWAWAY_NOT_ALLOWED ERR_MAX_STORAGE_REACHED ERR_UPLOAD_NOT_ENABLED ERR_CONFIRMATION_FAILED ERR_CANT_TERMINATE_OWNER ERR_EMAIL_INVALID ERR_INVALID_CREDENTIALS ERR_FORM_VALIDATION_FAILED ERR_TRIAL_UNAVAILABLE'.split(
        ' ',
      );
    for (const code of spec) expect(ERROR_CATALOGUE).toHaveProperty(code);
  });

  it('subjects carry the deployment prefix', () => {
    expect(serviceSubject('t1.', 'auth', 'login')).toBe('t1.svc.auth.login');
    expect(eventSubject('', 'auth.user.created.v1')).toBe('evt.auth.user.created.v1');
    expect(eventStreamName('t1.')).toBe('t1_EVENTS');
    expect(eventStreamName('')).toBe('EVENTS');
  });
});
