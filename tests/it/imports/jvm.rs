//! Java and Kotlin: plain, static and wildcard imports, Kotlin aliases; classes under their
//! source roots (`src/main/java`, `src/main/kotlin`, `src/test/java`), nested classes and
//! static members to their class file, wildcards to the package folder, others a package.

use super::{file, package, pairs, read, resolved};
use context_graph::imports::ImportKind::*;

const SERVICE: &str = r#"package com.shop.app;

// import com.shop.infra.Db;
import com.shop.domain.Order;
import com.shop.domain.Order.Line;
import static com.shop.domain.Rules.check;
import com.shop.infra.*;
import java.util.List;
import org.springframework.web.bind.annotation.RestController;

/** import com.shop.secret.Key; */
class Service { String sql = "import com.shop.infra.Db;"; }
"#;

const REPORT: &str = r#"package com.shop.report

import com.shop.domain.Order
import com.shop.domain.Rules as R
import com.shop.util.format
import com.shop.infra.*
import kotlinx.coroutines.flow.Flow
// import com.shop.infra.Db

val q = "import com.shop.secret.Key"
"#;

#[test]
fn java_and_kotlin_imports_are_read_and_no_comment_or_string_is() {
    let expected = vec![
        (4, "com.shop.domain.Order".to_string(), Static),
        (5, "com.shop.domain.Order.Line".to_string(), Static),
        (6, "com.shop.domain.Rules.check".to_string(), Member),
        (7, "com.shop.infra".to_string(), Wildcard),
        (8, "java.util.List".to_string(), Static),
        (
            9,
            "org.springframework.web.bind.annotation.RestController".to_string(),
            Static,
        ),
    ];
    assert_eq!(
        read("src/main/java/com/shop/app/Service.java", SERVICE),
        expected
    );
    let expected = vec![
        (3, "com.shop.domain.Order".to_string(), Static),
        (4, "com.shop.domain.Rules".to_string(), Static),
        (5, "com.shop.util.format".to_string(), Static),
        (6, "com.shop.infra".to_string(), Wildcard),
        (7, "kotlinx.coroutines.flow.Flow".to_string(), Static),
    ];
    assert_eq!(
        read("src/main/kotlin/com/shop/report/Report.kt", REPORT),
        expected
    );
}

#[test]
fn classes_resolve_under_their_source_roots() {
    let files = [
        ("src/main/java/com/shop/app/Service.java", SERVICE),
        ("src/main/java/com/shop/domain/Order.java", ""),
        ("src/main/java/com/shop/domain/Rules.java", ""),
        ("src/main/java/com/shop/infra/Db.java", ""),
        ("src/main/kotlin/com/shop/report/Report.kt", REPORT),
        (
            "src/main/kotlin/com/shop/util/Strings.kt",
            "package com.shop.util\nfun format() = 1\n",
        ),
    ];
    let expected = [
        (
            "com.shop.domain.Order",
            file("src/main/java/com/shop/domain/Order.java"),
        ),
        (
            "com.shop.domain.Order.Line",
            file("src/main/java/com/shop/domain/Order.java"),
        ),
        (
            "com.shop.domain.Rules.check",
            file("src/main/java/com/shop/domain/Rules.java"),
        ),
        ("com.shop.infra", file("src/main/java/com/shop/infra")),
        ("java.util.List", package("java.util")),
        (
            "org.springframework.web.bind.annotation.RestController",
            package("org.springframework.web.bind.annotation"),
        ),
    ];
    assert_eq!(
        resolved(&files, "src/main/java/com/shop/app/Service.java"),
        pairs(&expected)
    );
    let expected = [
        (
            "com.shop.domain.Order",
            file("src/main/java/com/shop/domain/Order.java"),
        ),
        (
            "com.shop.domain.Rules",
            file("src/main/java/com/shop/domain/Rules.java"),
        ),
        // A top-level function: its package's folder.
        (
            "com.shop.util.format",
            file("src/main/kotlin/com/shop/util"),
        ),
        ("com.shop.infra", file("src/main/java/com/shop/infra")),
        (
            "kotlinx.coroutines.flow.Flow",
            package("kotlinx.coroutines.flow"),
        ),
    ];
    assert_eq!(
        resolved(&files, "src/main/kotlin/com/shop/report/Report.kt"),
        pairs(&expected)
    );
}

#[test]
fn a_class_in_another_module_beats_a_package_folder_in_this_one() {
    let app = "package com.shop;\nimport com.shop.domain.Order;\nimport com.shop.Util;\n";
    let files = [
        ("app/src/main/java/com/shop/App.java", app),
        ("app/src/main/java/com/shop/Util.java", ""),
        ("domain/src/main/java/com/shop/domain/Order.java", ""),
        // The same class in a third module: the importing file's own module is not it, so
        // the first in path order.
        ("legacy/src/main/java/com/shop/domain/Order.java", ""),
    ];
    let expected = [
        (
            "com.shop.domain.Order",
            file("domain/src/main/java/com/shop/domain/Order.java"),
        ),
        (
            "com.shop.Util",
            file("app/src/main/java/com/shop/Util.java"),
        ),
    ];
    assert_eq!(
        resolved(&files, "app/src/main/java/com/shop/App.java"),
        pairs(&expected)
    );
}
