/**
 * The catalogue's overlays (Menu, Popover, Dialog, ConfirmDialog, Drawer, Select, Tabs, DatePicker):
 * buttons that open each, and, since an open menu or select cannot stay open in a full-page
 * screenshot, their panels' look as always-open examples (the same items and classes in place).
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListBox, Menu as RACMenu } from 'react-aria-components';
import { Button } from '../kit/Button';
import { DatePicker } from '../kit/DatePicker';
import { ConfirmDialog, Dialog } from '../kit/Dialog';
import { Drawer, type Dock } from '../kit/Drawer';
import { Icon } from '../kit/Icon';
import { KitProvider } from '../kit/KitProvider';
import { MenuItem, MenuSection, MenuSeparator, MenuTrigger, Submenu } from '../kit/Menu';
import { Popover } from '../kit/Popover';
import { Select, SelectItem } from '../kit/Select';
import { Tab, TabList, TabPanel, Tabs } from '../kit/Tabs';
import { Section } from './Section';

const SUBJECTS = ['maths', 'physics', 'history', 'music'] as const;

/** The board menu's items: icons, shortcuts, a section, a submenu, a disabled and a danger item. */
function MenuItems() {
  const { t } = useTranslation('catalogue');
  return (
    <>
      <MenuSection title={t('overlays.menu.board')}>
        <MenuItem id="rename" icon={<Icon name="rename" />} shortcut="F2">
          {t('buttons.rename')}
        </MenuItem>
        <MenuItem id="share" icon={<Icon name="share" />} shortcut="Ctrl+Shift+S">
          {t('buttons.share')}
        </MenuItem>
        <Submenu label={t('overlays.menu.move')} icon={<Icon name="move" />}>
          <MenuItem id="algebra">{t('overlays.menu.algebra')}</MenuItem>
          <MenuItem id="geometry">{t('overlays.menu.geometry')}</MenuItem>
        </Submenu>
        <MenuItem id="restore" icon={<Icon name="restore" />} isDisabled>
          {t('overlays.menu.restore')}
        </MenuItem>
      </MenuSection>
      <MenuSeparator />
      <MenuItem id="delete" icon={<Icon name="trash" />} shortcut="Del" danger>
        {t('buttons.danger')}
      </MenuItem>
    </>
  );
}

function SubjectItems() {
  const { t } = useTranslation('catalogue');
  return SUBJECTS.map((s) => (
    <SelectItem key={s} id={s} isDisabled={s === 'music'}>
      {t(`overlays.subjects.${s}`)}
    </SelectItem>
  ));
}

export function OverlaysSection() {
  const { t } = useTranslation('catalogue');
  const [dialog, setDialog] = useState<'dialog' | 'confirm' | null>(null);
  const [dock, setDock] = useState<Dock | null>(null);
  const [subject, setSubject] = useState<string | null>('maths');
  const [due, setDue] = useState<string | null>('2025-03-14');
  const [dueAt, setDueAt] = useState<string | null>('2025-03-14T09:30');
  const close = () => setDialog(null);
  return (
    <>
      <Section title={t('sections.menus')}>
        <div className="catalogue-row">
          <MenuTrigger
            label={t('overlays.menu.label')}
            trigger={
              <button type="button" className="catalogue-trigger">
                <Icon name="menu" /> {t('overlays.menu.open')}
              </button>
            }
          >
            <MenuItems />
          </MenuTrigger>
          <Popover
            label={t('overlays.popover.label')}
            trigger={
              <button type="button" className="catalogue-trigger">
                {t('overlays.popover.open')}
              </button>
            }
          >
            {(closePopover) => (
              <div className="catalogue-stack">
                <p>{t('overlays.popover.body')}</p>
                <Button size="sm" onClick={closePopover}>
                  {t('buttons.ghost')}
                </Button>
              </div>
            )}
          </Popover>
        </div>
        <Shown label={t('overlays.menu.shown')}>
          <KitProvider>
            <div className="kit-popover kit-menu-popover catalogue-shown">
              <RACMenu aria-label={t('overlays.menu.shown')} className="kit-menu">
                <MenuItems />
              </RACMenu>
            </div>
          </KitProvider>
        </Shown>
      </Section>
      <Section title={t('sections.dialogs')}>
        <div className="catalogue-row">
          <Button onClick={() => setDialog('dialog')}>{t('overlays.dialog.open')}</Button>
          <Button variant="danger" onClick={() => setDialog('confirm')}>
            {t('overlays.confirm.open')}
          </Button>
          <Button variant="secondary" onClick={() => setDock('bottom')}>
            {t('overlays.drawer.bottom')}
          </Button>
          <Button variant="secondary" onClick={() => setDock('right')}>
            {t('overlays.drawer.right')}
          </Button>
        </div>
        {dialog === 'dialog' ? (
          <Dialog
            title={t('overlays.dialog.title')}
            onClose={close}
            footer={
              <>
                <Button variant="ghost" onClick={close}>
                  {t('buttons.ghost')}
                </Button>
                <Button variant="primary" onClick={close}>
                  {t('buttons.primary')}
                </Button>
              </>
            }
          >
            <p>{t('overlays.dialog.body')}</p>
          </Dialog>
        ) : null}
        {dialog === 'confirm' ? (
          <ConfirmDialog title={t('overlays.confirm.title')} onConfirm={close} onCancel={close}>
            <p>{t('overlays.confirm.body')}</p>
          </ConfirmDialog>
        ) : null}
        {dock ? (
          <Drawer title={t('overlays.drawer.title')} dock={dock} onDockChange={setDock} onClose={() => setDock(null)}>
            <p>{t('overlays.drawer.body')}</p>
          </Drawer>
        ) : null}
      </Section>
      <Section title={t('sections.selects')}>
        <div className="catalogue-grid catalogue-fields">
          <Select label={t('overlays.select.label')} value={subject} onChange={(k) => setSubject(String(k))}>
            <SubjectItems />
          </Select>
          <Select
            label={t('overlays.select.label')}
            value={null}
            placeholder={t('overlays.select.placeholder')}
            onChange={(k) => setSubject(String(k))}
            error={t('overlays.select.error')}
          >
            <SubjectItems />
          </Select>
          <Select label={t('fields.locked')} value="history" onChange={() => undefined} isDisabled>
            <SubjectItems />
          </Select>
          <DatePicker label={t('overlays.date.due')} value={due} onChange={setDue} />
          <DatePicker label={t('overlays.date.dueAt')} value={dueAt} onChange={setDueAt} withTime />
        </div>
        <Shown label={t('overlays.select.shown')}>
          <KitProvider>
            <div className="kit-popover kit-listbox-popover catalogue-shown">
              <ListBox
                aria-label={t('overlays.select.shown')}
                className="kit-listbox"
                selectionMode="single"
                selectedKeys={subject ? [subject] : []}
                onSelectionChange={(keys) => keys !== 'all' && setSubject(String([...keys][0] ?? subject))}
              >
                <SubjectItems />
              </ListBox>
            </div>
          </KitProvider>
        </Shown>
      </Section>
      <Section title={t('sections.tabs')}>
        <Tabs defaultSelectedKey="work">
          <TabList label={t('overlays.tabs.label')}>
            <Tab id="work">{t('overlays.tabs.work')}</Tab>
            <Tab id="grades">{t('overlays.tabs.grades')}</Tab>
            <Tab id="archive" isDisabled>
              {t('overlays.tabs.archive')}
            </Tab>
          </TabList>
          <TabPanel id="work">
            <p>{t('overlays.tabs.workBody')}</p>
          </TabPanel>
          <TabPanel id="grades">
            <p>{t('overlays.tabs.gradesBody')}</p>
          </TabPanel>
        </Tabs>
      </Section>
    </>
  );
}

/** An always-open panel with a caption saying what it stands for. */
function Shown({ label, children }: { label: string; children: ReactNode }) {
  return (
    <figure className="catalogue-figure">
      <figcaption className="muted">{label}</figcaption>
      {children}
    </figure>
  );
}
