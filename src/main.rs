//! The `emilia` binary: the protocol loop by default, tools as subcommands.

fn main() {
    // `emilia move` counts its seconds from here, as a referee timing the whole process does.
    let started = std::time::Instant::now();
    // Then: an instruction the processor lacks would kill the process with no word.
    processor::exit_unless_supported();
    // Logs (started by the command line, after reading `-v` and `--log`) go to stderr or
    // the protocol log, and are off unless asked for: stdout is protocol only.
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(emilia::run_command_line(&args, started));
}

/// The processor check: the default build uses instructions that older processors lack
/// (see the README's "Other processors").
mod processor {
    /// The instruction-set extensions the compiler may use, each with whether this build
    /// enabled it: those of x86-64-v3, the default target.
    const EXTENSIONS: [(&str, bool); 9] = [
        ("avx", cfg!(target_feature = "avx")),
        ("avx2", cfg!(target_feature = "avx2")),
        ("bmi1", cfg!(target_feature = "bmi1")),
        ("bmi2", cfg!(target_feature = "bmi2")),
        ("f16c", cfg!(target_feature = "f16c")),
        ("fma", cfg!(target_feature = "fma")),
        ("lzcnt", cfg!(target_feature = "lzcnt")),
        ("movbe", cfg!(target_feature = "movbe")),
        ("popcnt", cfg!(target_feature = "popcnt")),
    ];

    const BEFORE: &str = "emilia: this build uses processor instructions this processor lacks:";
    const AFTER: &str =
        ".\nIt was built for x86-64 processors with AVX2, BMI2, FMA, LZCNT, MOVBE and \
        POPCNT (x86-64-v3:\nIntel Haswell, AMD Excavator and later). Build it for this one with\n  \
        RUSTFLAGS=\"-C target-cpu=native\" cargo build --release\n";

    /// Exits with a message naming what is missing and how to build for this processor
    /// when the processor lacks an extension this build uses. Kept to integer code and
    /// direct writes, so that the check itself runs on any x86-64 processor.
    pub fn exit_unless_supported() {
        if EXTENSIONS.iter().all(|&(name, used)| !used || has(name)) {
            return;
        }
        write(BEFORE);
        for (name, used) in EXTENSIONS {
            if used && !has(name) {
                write(" ");
                write(name);
            }
        }
        write(AFTER);
        std::process::exit(2);
    }

    fn write(text: &str) {
        // SAFETY: the pointer and length describe `text`, which lives through the call.
        unsafe {
            libc::write(2, text.as_ptr().cast(), text.len());
        }
    }

    /// Whether the processor (and for AVX, the operating system) supports extension
    /// `name`, read from CPUID.
    #[cfg(target_arch = "x86_64")]
    pub fn has(name: &str) -> bool {
        use std::arch::x86_64::{__cpuid, __cpuid_count};
        let bit = |word: u32, bit: u32| word >> bit & 1 == 1;
        let max_leaf = __cpuid(0).eax;
        let max_extended = __cpuid(0x8000_0000).eax;
        let leaf1 = __cpuid(1);
        let leaf7 = if max_leaf >= 7 {
            __cpuid_count(7, 0).ebx
        } else {
            0
        };
        let extended = if max_extended >= 0x8000_0001 {
            __cpuid(0x8000_0001).ecx
        } else {
            0
        };
        let avx = bit(leaf1.ecx, 28) && bit(leaf1.ecx, 27) && os_saves_vector_registers();
        match name {
            "avx" => avx,
            "avx2" => avx && bit(leaf7, 5),
            "bmi1" => bit(leaf7, 3),
            "bmi2" => bit(leaf7, 8),
            "f16c" => avx && bit(leaf1.ecx, 29),
            "fma" => avx && bit(leaf1.ecx, 12),
            "lzcnt" => bit(extended, 5),
            "movbe" => bit(leaf1.ecx, 22),
            "popcnt" => bit(leaf1.ecx, 23),
            _ => false,
        }
    }

    /// Whether the operating system saves the AVX registers (XCR0 bits 1 and 2); only
    /// asked once CPUID says XGETBV exists.
    #[cfg(target_arch = "x86_64")]
    fn os_saves_vector_registers() -> bool {
        let (low, _high): (u32, u32);
        // SAFETY: XGETBV with ECX = 0 reads XCR0 and has no other effect; the caller checked
        // the OSXSAVE bit, without which the instruction would fault.
        unsafe {
            std::arch::asm!("xgetbv", in("ecx") 0, out("eax") low, out("edx") _high,
                options(nomem, nostack, preserves_flags));
        }
        low & 0b110 == 0b110
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub fn has(_name: &str) -> bool {
        false
    }

    #[cfg(all(test, target_arch = "x86_64"))]
    mod tests {
        use super::*;

        #[test]
        fn cpuid_agrees_with_the_standard_library() {
            let std_says = |name: &str| match name {
                "avx" => std::arch::is_x86_feature_detected!("avx"),
                "avx2" => std::arch::is_x86_feature_detected!("avx2"),
                "bmi1" => std::arch::is_x86_feature_detected!("bmi1"),
                "bmi2" => std::arch::is_x86_feature_detected!("bmi2"),
                "f16c" => std::arch::is_x86_feature_detected!("f16c"),
                "fma" => std::arch::is_x86_feature_detected!("fma"),
                "lzcnt" => std::arch::is_x86_feature_detected!("lzcnt"),
                "movbe" => std::arch::is_x86_feature_detected!("movbe"),
                "popcnt" => std::arch::is_x86_feature_detected!("popcnt"),
                _ => unreachable!(),
            };
            for (name, _) in EXTENSIONS {
                assert_eq!(has(name), std_says(name), "{name}");
            }
            assert!(!has("teleport"));
        }
    }
}
