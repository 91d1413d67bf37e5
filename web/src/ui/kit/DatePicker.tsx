/**
 * A date (or date and time) field with a calendar, on React Aria: the segments' order, separators,
 * month names and first weekday follow the i18next language (KitProvider). Values are ISO strings
 * ("2025-03-01", "2025-03-01T09:30"), so callers need no date library.
 */
import {
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DatePicker as RACDatePicker,
  DateSegment,
  Dialog,
  FieldError,
  Group,
  Heading,
  Label,
  Popover,
  Text,
  type DateValue,
} from 'react-aria-components';
import { parseDate, parseDateTime } from '@internationalized/date';
import { Calendar as CalendarIcon, ChevronLeft, ChevronRight } from 'lucide-react';
import { KitProvider } from './KitProvider';
import { ICON_PROPS } from './Icon';
import './overlays.css';

export interface DatePickerProps {
  label: string;
  /** "YYYY-MM-DD", or "YYYY-MM-DDTHH:mm" with `withTime`; null when empty */
  value: string | null;
  onChange: (value: string | null) => void;
  withTime?: boolean;
  /** the earliest and latest allowed, same format as value */
  min?: string;
  max?: string;
  description?: string;
  /** shown under the field; the field is marked invalid */
  error?: string;
  isDisabled?: boolean;
  isRequired?: boolean;
  name?: string;
}

const parse = (s: string | null | undefined, withTime: boolean): DateValue | null =>
  s ? (withTime ? parseDateTime(s) : parseDate(s.slice(0, 10))) : null;

/** ISO without seconds: what a due date needs */
const format = (v: DateValue | null, withTime: boolean): string | null =>
  v ? (withTime ? v.toString().slice(0, 16) : v.toString().slice(0, 10)) : null;

export function DatePicker({
  label,
  value,
  onChange,
  withTime = false,
  min,
  max,
  description,
  error,
  isDisabled,
  isRequired,
  name,
}: DatePickerProps) {
  return (
    <KitProvider>
      <RACDatePicker
        className="kit-field kit-datepicker"
        value={parse(value, withTime)}
        onChange={(v) => onChange(format(v, withTime))}
        minValue={parse(min, withTime) ?? undefined}
        maxValue={parse(max, withTime) ?? undefined}
        granularity={withTime ? 'minute' : 'day'}
        isDisabled={isDisabled}
        isRequired={isRequired}
        isInvalid={!!error}
        name={name}
      >
        <Label className="kit-label">{label}</Label>
        <Group className="kit-date-group">
          <DateInput className="kit-date-input">
            {(segment) => <DateSegment segment={segment} className="kit-date-segment" />}
          </DateInput>
          <Button className="kit-date-button">
            <CalendarIcon {...ICON_PROPS} size={16} />
          </Button>
        </Group>
        {description ? (
          <Text slot="description" className="kit-description">
            {description}
          </Text>
        ) : null}
        <FieldError className="kit-error">{error}</FieldError>
        <Popover className="kit-popover">
          <Dialog className="kit-popover-dialog">
            <Calendar className="kit-calendar">
              <header className="kit-calendar-head">
                <Button slot="previous" className="kit-calendar-nav">
                  <ChevronLeft {...ICON_PROPS} size={16} />
                </Button>
                <Heading />
                <Button slot="next" className="kit-calendar-nav">
                  <ChevronRight {...ICON_PROPS} size={16} />
                </Button>
              </header>
              <CalendarGrid>{(date) => <CalendarCell date={date} className="kit-calendar-cell" />}</CalendarGrid>
            </Calendar>
          </Dialog>
        </Popover>
      </RACDatePicker>
    </KitProvider>
  );
}
