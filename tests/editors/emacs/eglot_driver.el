;;; eglot_driver.el --- drive Emacs + eglot in --batch for tests/editors/emacs  -*- lexical-binding: t -*-
;; Loaded after the configuration from docs/editors.md. Visits the file named by
;; $SKILL_LSP_TEST_FILE, waits (bounded) for the server's diagnostics to reach
;; Flymake and prints one line per diagnostic on stdout:
;;   DIAG <line> <type> <message>
;; then shuts the server down. Exit status 0 when diagnostics arrived, 1 if not.

(require 'eglot)
(require 'flymake)

(defun skill-lsp-test--print (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n")))

(let* ((file (getenv "SKILL_LSP_TEST_FILE"))
       (timeout (string-to-number (or (getenv "SKILL_LSP_TEST_TIMEOUT") "60")))
       (deadline (+ (float-time) timeout))
       ;; How long to wait for eglot to connect (short when none is expected).
       (connect-deadline (+ (float-time) (string-to-number (or (getenv "SKILL_LSP_TEST_CONNECT_WAIT")
                                                              (number-to-string timeout)))))
       (buf (find-file-noselect file))
       diags)
  (with-current-buffer buf
    (skill-lsp-test--print "MODE %s" major-mode)
    ;; eglot-ensure connects from post-command-hook, which never runs in --batch:
    ;; run it once as the command loop would after visiting the file.
    (run-hooks 'post-command-hook)
    (while (and (not (eglot-current-server)) (< (float-time) (min deadline connect-deadline)))
      (accept-process-output nil 0.2))
    (let ((server (eglot-current-server)))
      (skill-lsp-test--print "SERVER %s" (if server (eglot--project-nickname server) "none"))
      ;; Wait for diagnostics, then until they have not changed for 1.5 s: the
      ;; server publishes again once it has pulled workspace/configuration.
      (let ((last nil) (stable-since nil))
        (while (and server (< (float-time) deadline)
                    (not (and diags stable-since (> (- (float-time) stable-since) 1.5))))
          (accept-process-output nil 0.1)
          (when (and flymake-mode (not (flymake-running-backends)))
            (flymake-start))
          (setq diags (flymake-diagnostics))
          (let ((now (mapcar (lambda (d) (list (flymake-diagnostic-beg d) (flymake-diagnostic-type d)
                                               (flymake-diagnostic-text d)))
                             diags)))
            (unless (and stable-since (equal now last))
              (setq last now stable-since (float-time))))))
      (dolist (d (sort diags (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))
        (skill-lsp-test--print "DIAG %d %s %s"
                               (line-number-at-pos (flymake-diagnostic-beg d))
                               (flymake-diagnostic-type d)
                               (flymake-diagnostic-text d)))
      (when server
        (ignore-errors (eglot-shutdown server nil 5))))
    (set-buffer-modified-p nil))
  (kill-emacs (if diags 0 1)))
