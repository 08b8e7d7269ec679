// Passkeys and security keys (allauth.mfa's WebAuthn) without inline script, for our strict CSP.
// allauth's own pages run its code from <script> blocks; our templates (templates/mfa/) instead
// mark the button that starts a ceremony, and this file does the rest:
//   data-passkey="create"  adds a key (options: the json_script named by data-passkey-options);
//   data-passkey="get"     signs in or confirms with one (options from data-passkey-options, or,
//                          with data-passkey-fetch, from a GET of the form's action, as allauth's
//                          passkey sign-in serves them);
//   data-passkey-credential names the hidden input the browser's answer goes in, and
//   data-passkey-passwordless the "passkey" checkbox of the add form, if any.
// webauthn-json (allauth's static copy) turns the JSON options into the browser's ArrayBuffers.
(() => {
  const webauthnJSON = window.webauthnJSON;

  function options(button) {
    const holder = document.getElementById(button.dataset.passkeyOptions);
    return JSON.parse(holder.textContent);
  }

  async function requestOptions(button, form) {
    if (button.dataset.passkeyFetch === undefined) return options(button).request_options;
    const response = await fetch(form.action, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return (await response.json()).request_options;
  }

  function creationOptions(button) {
    const creation = JSON.parse(JSON.stringify(options(button).creation_options));
    const checkbox = button.dataset.passkeyPasswordless
      ? document.getElementById(button.dataset.passkeyPasswordless)
      : null;
    if (checkbox) {
      // A passkey signs in alone: the key keeps the account (resident) and checks the person.
      const selection = creation.publicKey.authenticatorSelection;
      selection.residentKey = checkbox.checked ? "required" : "discouraged";
      selection.requireResidentKey = checkbox.checked;
      if (checkbox.checked) selection.userVerification = "required";
    }
    return creation;
  }

  function showError(button, error) {
    const message = document.getElementById(button.dataset.passkeyError);
    if (!message) return;
    // A cancelled or timed-out prompt is the person's choice: say so, nothing more.
    const detail = error && error.name === "NotAllowedError" ? "" : ` (${error.message || error})`;
    message.textContent = `${message.dataset.text}${detail}`;
    message.hidden = false;
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-passkey]");
    if (!button || !webauthnJSON) return;
    event.preventDefault();
    const input = document.getElementById(button.dataset.passkeyCredential);
    const form = input.form;
    button.disabled = true;
    try {
      const credential =
        button.dataset.passkey === "create"
          ? await webauthnJSON.create(creationOptions(button))
          : await webauthnJSON.get(await requestOptions(button, form));
      input.value = JSON.stringify(credential);
      form.submit();
    } catch (error) {
      showError(button, error);
      button.disabled = false;
    }
  });
})();
