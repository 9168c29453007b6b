package dev.windlass.git;

import dev.windlass.policy.source.SignatureOutcome;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPPublicKeyRingCollection;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.operator.jcajce.JcaKeyFingerprintCalculator;

/**
 * The keys whose signatures the engine trusts, from a directory the engine is given (never from the config repo):
 * OpenPGP public keys in {@code *.asc} files (ASCII-armoured, as {@code gpg --armor --export} prints them; one file
 * may hold several) and OpenSSH keys in a file named {@code allowed_signers} (the format of {@code ssh-keygen -Y
 * verify} and Git's {@code gpg.ssh.allowedSignersFile}). The {@code *.asc} files are read once; {@code
 * allowed_signers} is read again by JGit whenever it changes.
 */
public final class TrustedKeys {
    public static final String ALLOWED_SIGNERS = "allowed_signers";
    /** No keys at all: every signature check fails with {@link SignatureOutcome#NO_TRUSTED_KEYS}. */
    public static final TrustedKeys NONE = new TrustedKeys(null, emptyRings(), null);

    private final Path directory;
    private final PGPPublicKeyRingCollection openPgp;
    private final Path allowedSigners;

    private TrustedKeys(Path directory, PGPPublicKeyRingCollection openPgp, Path allowedSigners) {
        this.directory = directory;
        this.openPgp = openPgp;
        this.allowedSigners = allowedSigners;
    }

    /**
     * Reads the keys in {@code directory}. A {@code *.asc} file that is not an OpenPGP public key block is an error
     * naming the file, so a broken key never silently trusts less (or more) than the operator meant.
     */
    public static TrustedKeys load(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) throw new IOException(directory + ": not a directory of trusted keys (*.asc, allowed_signers)");
        List<PGPPublicKeyRing> rings = new ArrayList<>();
        List<Path> ascs;
        try (Stream<Path> files = Files.list(directory)) {
            ascs = files.filter(p -> p.getFileName().toString().endsWith(".asc") && Files.isRegularFile(p)).sorted().toList();
        }
        for (Path asc : ascs) {
            try (InputStream in = PGPUtil.getDecoderStream(Files.newInputStream(asc))) {
                PGPPublicKeyRingCollection read = new PGPPublicKeyRingCollection(in, new JcaKeyFingerprintCalculator());
                if (read.size() == 0) throw new IOException(asc + ": holds no OpenPGP public key; export one with gpg --armor --export KEYID");
                read.getKeyRings().forEachRemaining(rings::add);
            } catch (PGPException | RuntimeException e) {
                throw new IOException(asc + ": not an OpenPGP public key block (" + e.getMessage()
                        + "); export one with gpg --armor --export KEYID", e);
            }
        }
        Path signers = directory.resolve(ALLOWED_SIGNERS);
        return new TrustedKeys(directory, new PGPPublicKeyRingCollection(rings), Files.isRegularFile(signers) ? signers.toAbsolutePath() : null);
    }

    private static PGPPublicKeyRingCollection emptyRings() {
        return new PGPPublicKeyRingCollection(List.of());
    }

    /** Whether there is any key to verify with. */
    public boolean isEmpty() { return openPgp.size() == 0 && allowedSigners == null; }

    PGPPublicKeyRingCollection openPgp() { return openPgp; }

    /** The allowed_signers file, or null. */
    Path allowedSigners() { return allowedSigners; }

    /** Where they were read from, with how many OpenPGP keys and whether there is an allowed_signers file. */
    public String describe() {
        if (directory == null) return "no trusted keys";
        return directory + " (" + openPgp.size() + " OpenPGP key" + (openPgp.size() == 1 ? "" : "s")
                + (allowedSigners == null ? ", no allowed_signers" : ", allowed_signers") + ")";
    }
}
