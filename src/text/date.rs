//! Dates: the one parser of `YYYY-MM-DD` (a record's date, drift's "since"), and days written
//! back as text. Proleptic Gregorian, UTC, no time zones (ADR-0001, ADR-0005).

pub const SECONDS_PER_DAY: i64 = 86_400;

/// `YYYY-MM-DD` at the start of `text` (anything after the tenth character but a digit, like a
/// time, is ignored) as days since 1970-01-01; `None` when it is not a real date.
pub fn parse_date(text: &str) -> Option<i64> {
    let b = text.trim().as_bytes();
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' || b.get(10).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let num = |s: &[u8]| -> Option<i64> {
        s.iter().try_fold(0i64, |acc, &c| {
            c.is_ascii_digit().then(|| acc * 10 + i64::from(c - b'0'))
        })
    };
    let (y, m, d) = (num(&b[0..4])?, num(&b[5..7])?, num(&b[8..10])?);
    if !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
        return None;
    }
    Some(days_from_civil(y, m, d))
}

/// The first real `YYYY-MM-DD` date standing on its own in `text` (no digit right before or
/// after it), as written.
pub fn first_iso_date(text: &str) -> Option<String> {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(9)).find_map(|i| {
        let starts = i == 0 || !b[i - 1].is_ascii_digit();
        // `parse_date` checks the shape, the date and that no digit follows.
        let day = starts.then(|| parse_date_at(&b[i..]))??;
        Some(format_day(day))
    })
}

/// [`parse_date`] on bytes that may continue with anything (not trimmed, not UTF-8 checked).
fn parse_date_at(b: &[u8]) -> Option<i64> {
    let head = std::str::from_utf8(b.get(..10)?).ok()?;
    if b.get(10).is_some_and(u8::is_ascii_digit) || head.starts_with(char::is_whitespace) {
        return None;
    }
    parse_date(head)
}

/// Seconds since the epoch as the UTC date `YYYY-MM-DD`.
pub fn utc_date(seconds: i64) -> String {
    format_day(seconds.div_euclid(SECONDS_PER_DAY))
}

/// Days since 1970-01-01 as `YYYY-MM-DD` (a year outside 0..=9999 as `format!` would write it).
pub fn format_day(day: i64) -> String {
    match day_digits(day) {
        Ok(bytes) => std::str::from_utf8(&bytes)
            .map(str::to_owned)
            .unwrap_or_default(),
        Err(text) => text,
    }
}

/// [`format_day`] as a shared string, made in one allocation: the commits of one day share it.
pub fn format_day_shared(day: i64) -> std::sync::Arc<str> {
    match day_digits(day) {
        Ok(bytes) => std::str::from_utf8(&bytes).unwrap_or_default().into(),
        Err(text) => text.into(),
    }
}

/// The ten characters of a day in the years 0..=9999, written by hand (it runs for every
/// commit of an answer, and `format!` was a tenth of one); any other year as `format!` writes
/// it.
fn day_digits(day: i64) -> Result<[u8; 10], String> {
    let (y, m, d) = civil_from_days(day);
    if !(0..=9999).contains(&y) {
        return Err(format!("{y:04}-{m:02}-{d:02}"));
    }
    let (y, m, d) = (y as u16, m as u8, d as u8);
    let digit = |n: u16| b'0' + (n % 10) as u8;
    Ok([
        digit(y / 1000),
        digit(y / 100),
        digit(y / 10),
        digit(y),
        b'-',
        b'0' + m / 10,
        b'0' + m % 10,
        b'-',
        b'0' + d / 10,
        b'0' + d % 10,
    ])
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Howard Hinnant's days-from-civil: the proleptic Gregorian date as days since 1970-01-01.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The inverse of [`days_from_civil`].
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_is_written_as_format_would() {
        // Years 0..=9999 by hand, the rest (negative, five digits) by `format!`.
        for day in (-800_000..3_000_000)
            .step_by(331)
            .chain([-719_529, -719_528, 2_932_896, 2_932_897])
        {
            let (y, m, d) = civil_from_days(day);
            assert_eq!(
                format_day(day),
                format!("{y:04}-{m:02}-{d:02}"),
                "day {day}"
            );
            assert_eq!(*format_day_shared(day), format_day(day), "day {day}");
        }
    }

    #[test]
    fn civil_dates_round_trip() {
        assert_eq!(parse_date("1970-01-01"), Some(0));
        assert_eq!(parse_date("2000-03-01"), Some(11_017));
        assert_eq!(format_day(11_017), "2000-03-01");
        assert_eq!(utc_date(1_740_873_600), "2025-03-02");
        assert_eq!(utc_date(-1), "1969-12-31");
        for day in (-700_000..2_900_000).step_by(997) {
            assert_eq!(parse_date(&format_day(day)), Some(day));
        }
        assert_eq!(parse_date("2024-02-29"), Some(19_782));
        assert_eq!(parse_date("2025-02-29"), None);
        assert_eq!(parse_date("2025-13-01"), None);
        assert_eq!(parse_date("2025-3-1"), None);
        assert_eq!(parse_date("2025-03-02T10:00:00Z"), parse_date("2025-03-02"));
    }

    #[test]
    fn the_first_date_in_text_is_a_real_one_on_its_own() {
        assert_eq!(first_iso_date("on 2024-02-30"), None);
        assert_eq!(
            first_iso_date("x 2024-02-29 y").as_deref(),
            Some("2024-02-29")
        );
        assert_eq!(first_iso_date("Date: 2 March 2024"), None);
        assert_eq!(first_iso_date("12024-01-01 and 2024-01-011"), None);
        assert_eq!(
            first_iso_date("2024-02-30, then 2024-03-01").as_deref(),
            Some("2024-03-01")
        );
        assert_eq!(
            first_iso_date("é2025-01-02T09:00").as_deref(),
            Some("2025-01-02")
        );
        assert_eq!(first_iso_date("2025-0é-01"), None);
    }
}
